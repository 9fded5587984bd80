import type { CompiledQuery } from 'kysely';
import { SqlInvoiceableItemsRepository } from '../../src/areas/invoiceable-items/invoiceable-items.repository';
import { SqlRateChangesRepository } from '../../src/areas/rate-changes/rate-changes.repository';
import { SqlEventsRepository } from '../../src/areas/documents/events.repository';
import { outboxRows, SqlOutboxRepository } from '../../src/areas/outbox/outbox.repository';
import { SqlWebhookEndpointsRepository } from '../../src/areas/webhooks/webhooks.repository';
import type { SecretBox } from '../../src/kernel/secret-box';
import type { SliceRequest } from '../../src/kernel/connections';
import type { ArrayRows } from '../../src/store/database';
import { domainEventBus, WEBHOOK_EVENT_TYPES } from '../../src/modules';
import { createTestStore, describeEachDialect, type TestStore } from '../support/harness';

const FACILITY = '00000000-0000-4000-8000-000000000001';
const COMPANY = '00000000-0000-4000-8000-000000000002';

/**
 * The plans of the connections' keyset statements: each seeks its list's index from the cursor's
 * position and walks it in the list's order (forward and backward), with no sort of its own.
 * PostgreSQL is told not to scan or sort when it can help it, so the plan shows what serves the
 * order rather than what is cheapest on a nearly empty table.
 */
describeEachDialect('connection plans', (dialect) => {
  let t: TestStore;
  const statements: CompiledQuery[] = [];

  beforeAll(async () => {
    t = await createTestStore(dialect);
  });
  afterAll(() => t.close());

  /** The store's reads, each statement kept. */
  const recording: ArrayRows = (query) => {
    statements.push(query.compile(t.store.db));
    return t.store.arrays(query);
  };

  async function plan(query: CompiledQuery): Promise<string> {
    if (t.store.sqlite) {
      const rows = t.store.sqlite
        .prepare(`explain query plan ${query.sql}`)
        .all(...query.parameters) as Array<{
        detail: string;
      }>;
      return rows.map((row) => row.detail).join('\n');
    }
    const client = await t.store.pgPool!.connect();
    try {
      const schema = (await client.query<{ schema: string }>('select current_schema() as schema')).rows[0];
      expect(schema).toBeDefined();
      await client.query('set enable_seqscan = off; set enable_sort = off');
      const result = await client.query<{ 'QUERY PLAN': string }>(
        `explain ${query.sql}`,
        query.parameters as unknown[],
      );
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.query('reset enable_seqscan; reset enable_sort').catch(() => undefined);
      client.release();
    }
  }

  const slices: Array<[string, SliceRequest]> = [
    ['forward after a cursor', { direction: 'forward', limit: 7, from: null, to: null }],
    ['backward before a cursor', { direction: 'backward', limit: 7, from: null, to: null }],
  ];

  it.each(slices)('invoiceable items: %s along invoiceable_items_list_order', async (_name, slice) => {
    const repository = new SqlInvoiceableItemsRepository(t.store.db, recording, t.store.bytes);
    statements.length = 0;
    await repository.pricedSlice(
      FACILITY,
      { kind: 'retail' },
      { ...slice, from: ['retail', 'lock', FACILITY] },
    );
    const keyset = statements.find((query) => query.sql.includes(' limit '))!;
    const shown = await plan(keyset);
    expect(shown).toMatch(/invoiceable_items_list_order/);
    expect(shown).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it.each(slices)('rate change updates: %s along rate_changes_order', async (_name, slice) => {
    const repository = new SqlRateChangesRepository(t.store.db, recording, t.store.bytes);
    statements.length = 0;
    await repository.sliceInWindow(
      {
        companyId: COMPANY,
        after: '2000-01-01T00:00:00.000Z',
        before: '2100-01-01T00:00:00.000Z',
        createdBy: null,
      },
      { ...slice, from: ['bench storage 1', 'adam smith', '2026-01-01T00:00:00.000Z', FACILITY] },
    );
    const keyset = statements.find((query) => query.sql.includes(' limit '))!;
    const shown = await plan(keyset);
    expect(shown).toMatch(/rate_changes_order/);
    expect(shown).not.toMatch(/TEMP B-TREE|Sort/);
  });

  /**
   * The plan of a statement read through the store's Kysely instance (the events' and outbox's
   * repositories), as the store would run it with any values: a generic plan on PostgreSQL.
   */
  async function genericPlan(read: () => Promise<unknown>): Promise<string> {
    const before = t.queries.length;
    await read();
    const text = t.queries.slice(before).find((query) => / limit /.test(query));
    expect(text).toBeDefined();
    if (t.store.sqlite) {
      const count = (text!.match(/\?/g) ?? []).length;
      return plan({ sql: text!, parameters: Array<null>(count).fill(null) } as unknown as CompiledQuery);
    }
    const count = new Set(text!.match(/\$\d+/g) ?? []).size;
    const client = await t.store.pgPool!.connect();
    try {
      await client.query(
        'set plan_cache_mode = force_generic_plan; set enable_seqscan = off; set enable_sort = off',
      );
      await client.query(`prepare keyset as ${text!}`);
      const values = Array.from({ length: count }, () => 'null').join(', ');
      const result = await client.query<{ 'QUERY PLAN': string }>(`explain execute keyset(${values})`);
      await client.query('deallocate keyset');
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await client
        .query('reset plan_cache_mode; reset enable_seqscan; reset enable_sort')
        .catch(() => undefined);
      client.release();
    }
  }

  const POSITION = ['2026-11-20T15:00:00.000Z', FACILITY];

  it.each(slices)('events: %s along events_list_order', async (_name, slice) => {
    const repository = new SqlEventsRepository(t.store.db);
    const shown = await genericPlan(() =>
      repository.slice(FACILITY, { types: ['move_in_unit_event'] }, { ...slice, from: POSITION }),
    );
    expect(shown).toMatch(/events_list_order/);
    expect(shown).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it.each(slices)('outbox messages: %s along outbox_messages_list_order', async (_name, slice) => {
    const repository = new SqlOutboxRepository(t.store.db, domainEventBus());
    const shown = await genericPlan(() =>
      repository.sliceForFacility(FACILITY, {}, { ...slice, from: POSITION }),
    );
    expect(shown).toMatch(/outbox_messages_list_order/);
    expect(shown).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it.each(slices)('webhook deliveries: %s along outbox_messages_recipient_order', async (_name, slice) => {
    // Deliveries are read without their endpoint's secrets: no box is opened.
    const repository = new SqlWebhookEndpointsRepository(
      t.store.db,
      {} as SecretBox,
      WEBHOOK_EVENT_TYPES,
      outboxRows,
    );
    const shown = await genericPlan(() => repository.deliverySlice(FACILITY, { ...slice, from: POSITION }));
    expect(shown).toMatch(/outbox_messages_recipient_order/);
    expect(shown).not.toMatch(/TEMP B-TREE|Sort/);
  });
});
