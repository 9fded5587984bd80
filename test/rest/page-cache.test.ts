import { sql } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ChargeRequest, ChargeResult, PaymentGateway } from '../../src/areas/payments/gateway';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import { openStore } from '../../src/store/database';
import { migrateToLatest } from '../../src/store/migrator';
import {
  RevisionsRepository,
  SQLITE_TOKEN_MAX_AGE_MS,
} from '../../src/store/repositories/revisions.repository';
import type { DatasetInvoiceableItem } from '../../src/store/dataset/dataset.types';
import { localDate } from '../../src/kernel/time';
import {
  buildFacility,
  buildItem,
  buildLedger,
  buildRateAppliedAction,
  buildRateChange,
  buildTenant,
  buildUnit,
  buildWorld,
  worldDataset,
} from '../support/factories';
import { createTestStore, describeEachDialect } from '../support/harness';
import { createInstance, createTestApp, oauthHeader, type TestApp } from '../support/http';
import { DECLINED_VISA, cash, creditCard, line, payment } from '../support/payments';

describeEachDialect('list pages kept between requests', (dialect) => {
  let t: TestApp;
  let revisions: RevisionsRepository;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    revisions = new RevisionsRepository(t.db.store.db);
  });
  afterAll(() => t.close());

  describe('rate change updates', () => {
    const window = '?updated_after=2026-01-01T00:00:00Z&updated_before=2027-01-01T00:00:00Z';
    let url: string;
    let facility: ReturnType<typeof buildFacility>;
    let tenant: ReturnType<typeof buildTenant>;
    let unit: ReturnType<typeof buildUnit>;

    beforeAll(async () => {
      facility = buildFacility({ company_id: t.world.company.id, name: 'Alpha', time_zone: 'UTC' });
      tenant = buildTenant({ facility_id: facility.id, first_name: 'Ada', last_name: 'Lovelace' });
      unit = buildUnit({ facility_id: facility.id, name: 'A-101' });
      await t.load({
        facilities: [facility],
        tenants: [tenant],
        units: [unit],
        rate_changes: [
          buildRateChange({
            facility_id: facility.id,
            tenant_id: tenant.id,
            unit_id: unit.id,
            changed_at: '2026-11-01T12:00:00Z',
          }),
        ],
      });
      url = `/v1/companies/${t.world.company.id}/rate_change_updates${window}`;
    });

    const first = async () => {
      const res = await t.get(url);
      expect(res.statusCode).toBe(200);
      return res.json().rate_change_updates[0];
    };

    it('answers a repeated request byte for byte as the first, without reading the rows again', async () => {
      const res = await t.get(url);
      t.db.queries.length = 0;
      const again = await t.get(url);
      expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(again.body).toBe(res.body.replace(res.json().meta.request_id, again.json().meta.request_id));
      expect(t.db.queries.filter((q) => /rate_change/.test(q))).toEqual([]);
    });

    it('echoes each request its own parameters and defaults around a kept page', async () => {
      await t.get(url);
      const explicit = await t.get(`${url}&page=1&per_page=500`);
      expect(explicit.json().meta.parameters).toMatchObject({ page: '1', per_page: '500' });
      const defaulted = await t.get(url);
      expect(defaulted.json().meta.parameters).toMatchObject({ page: 1, per_page: 500 });
      expect(explicit.json().rate_change_updates).toEqual(defaulted.json().rate_change_updates);
    });

    it("shows a tenant's imported new name at once", async () => {
      expect((await first()).tenant_name).toBe('Ada Lovelace');
      await t.load({ tenants: [{ ...tenant, first_name: 'Augusta' }] });
      expect((await first()).tenant_name).toBe('Augusta Lovelace');
    });

    it("shows a unit's imported new name at once", async () => {
      expect((await first()).unit_name).toBe('A-101');
      await t.load({ units: [{ ...unit, name: 'B-202' }] });
      expect((await first()).unit_name).toBe('B-202');
    });

    it("writes changed_at in the facility's new time zone, and its new name, at once", async () => {
      expect((await first()).changed_at).toBe('2026-11-01T12:00:00+00:00');
      await t.load({ facilities: [{ ...facility, name: 'Aleph', time_zone: 'America/New_York' }] });
      const change = await first();
      expect(change.changed_at).toBe('2026-11-01T07:00:00-05:00');
      expect(change.facility_name).toBe('Aleph');
    });

    it('counts and lists a rate change imported after the page was kept', async () => {
      const before = (await t.get(url)).json();
      await t.load({
        rate_changes: [
          buildRateChange({
            facility_id: facility.id,
            tenant_id: tenant.id,
            unit_id: unit.id,
            changed_at: '2026-11-02T12:00:00Z',
          }),
        ],
      });
      const after = (await t.get(url)).json();
      expect(after.meta.pagination.total_entries).toBe(before.meta.pagination.total_entries + 1);
      expect(after.rate_change_updates).toHaveLength(before.rate_change_updates.length + 1);
    });
  });

  describe('flippers', () => {
    const names = async () => {
      const res = await t.get(`/v1/${t.world.facility.id}/flippers`);
      expect(res.statusCode).toBe(200);
      return res.json().flippers as string[];
    };

    it('shows a flag imported for the facility, and one turned off, at once', async () => {
      expect(await names()).not.toContain('kept_flag');
      await t.load({ flippers: [{ name: 'kept_flag', facility_ids: [t.world.facility.id] }] });
      expect(await names()).toContain('kept_flag');
      await t.load({ flippers: [{ name: 'kept_flag', facility_ids: [] }] });
      expect(await names()).not.toContain('kept_flag');
    });

    it("answers 403 to another company's client for a facility and page the owner has kept", async () => {
      const url = `/v1/${t.world.facility.id}/flippers`;
      await names();
      await names();
      const foreign = await t.get(url, { authorization: `Bearer ${t.world.otherClient.bearer_token}` });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().meta).toMatchObject({ status_code: 403, error_code: 13 });
      expect(foreign.body).not.toContain('flippers":');
      expect(await names()).toEqual(expect.any(Array));
    });
  });

  describe('rate applied actions', () => {
    it("answers a kept page with each request's own echo, and an action imported after it at once", async () => {
      const { facility } = t.world;
      const tenant = buildTenant({ facility_id: facility.id });
      const unit = buildUnit({ facility_id: facility.id });
      const ledger = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
      await t.load({ tenants: [tenant], units: [unit], ledgers: [ledger] });
      const today = localDate(t.clock.now(), facility.time_zone ?? 'UTC');
      const action = (completed_by: string) =>
        buildRateAppliedAction({
          facility_id: facility.id,
          new_ledger_id: ledger.id,
          unit_id: unit.id,
          completed_on: today,
          completed_by,
          time_completed: `${today}T12:00:00Z`,
        });
      const earlier = action('Early Clerk');
      await t.load({ rate_applied_actions: [earlier] });
      const url = `/v1/${facility.id}/rate_applied_actions`;
      const clerks = (res: LightMyRequestResponse) =>
        res.json().rate_applied_actions.map((a: { completed_by: string }) => a.completed_by) as string[];

      const first = await t.get(url);
      expect(first.statusCode).toBe(200);
      expect(clerks(first)).toEqual(['Early Clerk']);
      t.db.queries.length = 0;
      // Kept: answered by the hook, with the defaults this request was read with.
      const again = await t.get(url);
      expect(again.body).toBe(first.body.replace(first.json().meta.request_id, again.json().meta.request_id));
      expect(t.db.queries.filter((q) => /rate_applied_actions/.test(q))).toEqual([]);
      const ranged = await t.get(`${url}?start_date=${today}`);
      expect(ranged.json().meta.parameters).toEqual({
        facility_id: facility.id,
        start_date: today,
        end_date: today,
        rate_applied_action: {},
      });

      const later = action('Late Clerk');
      await t.load({ rate_applied_actions: [later] });
      const after = await t.get(url);
      expect(clerks(after).sort()).toEqual(['Early Clerk', 'Late Clerk']);
      expect(after.json().meta.parameters).toEqual(first.json().meta.parameters);
    });
  });

  describe('invoiceable items', () => {
    let item: DatasetInvoiceableItem;
    let url: string;
    const payUrl = () => `/v1/${t.world.facility.id}/invoiceable_items/retail_payment`;
    const quantityOf = async (app?: FastifyInstance) => {
      const res = app
        ? await app.inject({
            method: 'GET',
            url,
            headers: { authorization: oauthHeader(t.world.client, { method: 'GET', url }) },
          })
        : await t.get(url);
      expect(res.statusCode).toBe(200);
      return res.json().invoiceable_items.find((i: { id: string }) => i.id === item.id).quantity;
    };

    beforeAll(async () => {
      const tenant = buildTenant({ facility_id: t.world.facility.id });
      item = buildItem({ facility_id: t.world.facility.id, description: 'Disc lock', quantity: 10 });
      await t.load({ tenants: [tenant], invoiceable_items: [item] });
      url = `/v1/${t.world.facility.id}/invoiceable_items/retail`;
      tenantId = tenant.id;
    });
    let tenantId = '';
    const body = (method: Record<string, unknown>) =>
      payment([line(item, 2)], method, { tenant_id: tenantId });

    it('shows the stock a retail payment took, and none when the charge is declined', async () => {
      expect(await quantityOf()).toBe(10);
      const declined = await t.postJson(payUrl(), body(creditCard({ card_number: DECLINED_VISA })));
      expect(declined.statusCode).toBe(400);
      expect(await quantityOf()).toBe(10);
      const paid = await t.postJson(payUrl(), body(cash('100')));
      expect(paid.statusCode).toBe(200);
      expect(await quantityOf()).toBe(8);
    });

    it("shows an item's imported new price tier and a newly imported item at once", async () => {
      const all = `/v1/${t.world.facility.id}/invoiceable_items`;
      const before = (await t.get(all)).json().invoiceable_items;
      const tiers = [{ ...item.invoiceable_amounts[0], amount: 12.5 }];
      const priced = { ...item, invoiceable_amounts: tiers, tax_total: 1, total: 13.5 };
      const added = buildItem({ facility_id: t.world.facility.id, kind: 'service', description: 'Zz late' });
      await t.load({ invoiceable_items: [priced, added] });
      const after = (await t.get(all)).json().invoiceable_items;
      expect(after).toHaveLength(before.length + 1);
      expect(after.find((i: { id: string }) => i.id === item.id).amount).toBe(12.5);
    });

    it("another instance's payment is seen by this one at once", async () => {
      const other = await createInstance(t.db.store, { clock: t.clock });
      try {
        const before = await quantityOf();
        expect(await quantityOf(other.app)).toBe(before);
        const paid = await other.app.inject({
          method: 'POST',
          url: payUrl(),
          headers: {
            authorization: `Bearer ${t.world.client.bearer_token}`,
            'content-type': 'application/json',
          },
          payload: JSON.stringify(body(cash('100'))),
        });
        expect(paid.statusCode).toBe(200);
        expect(await quantityOf()).toBe(before - 2);
      } finally {
        await other.app.close();
      }
    });

    it("does not touch another facility's kept pages when one facility's stock changes", async () => {
      const elsewhere = buildFacility({ company_id: t.world.company.id });
      await t.load({ facilities: [elsewhere] });
      const token = await revisions.token(`items:${elsewhere.id}`);
      expect((await t.postJson(payUrl(), body(cash('100')))).statusCode).toBe(200);
      expect(await revisions.token(`items:${elsewhere.id}`)).toBe(token);
    });
  });

  it('answers byte for byte what an instance with the cache turned off (PAGE_CACHE_MB=0) answers', async () => {
    const uncached = await createInstance(t.db.store, { env: { PAGE_CACHE_MB: '0' }, clock: t.clock });
    try {
      const urls = [
        `/v1/${t.world.facility.id}/invoiceable_items`,
        `/v1/${t.world.facility.id}/invoiceable_items/retail?per_page=1&page=2`,
        `/v1/companies/${t.world.company.id}/rate_change_updates?updated_after=2026-01-01T00:00:00%2B01:00` +
          '&updated_before=2027-01-01T00:00:00Z&per_page=1',
      ];
      for (const url of urls) {
        const headers = (method: string) => ({ authorization: oauthHeader(t.world.client, { method, url }) });
        await t.get(url);
        const kept = await t.get(url);
        const built = await uncached.app.inject({ method: 'GET', url, headers: headers('GET') });
        expect(built.statusCode).toBe(200);
        expect(kept.body).toBe(built.body.replace(built.json().meta.request_id, kept.json().meta.request_id));
        expect(kept.headers['content-type']).toBe(built.headers['content-type']);
      }
      expect(uncached.services.pages.size).toBe(0);
      expect(t.services.pages.size).toBeGreaterThan(0);
    } finally {
      await uncached.app.close();
    }
  });
});

describeEachDialect('revision counters', (dialect) => {
  let t: TestApp;
  let revisions: RevisionsRepository;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    revisions = new RevisionsRepository(t.db.store.db);
  });
  afterAll(() => t.close());

  it('leaves the counter as it was when a write is rolled back', async () => {
    const item = buildItem({ facility_id: t.world.facility.id });
    await t.load({ invoiceable_items: [item] });
    const scope = `items:${t.world.facility.id}` as const;
    const token = await revisions.token(scope);
    await expect(
      t.db.store.db.transaction().execute(async (trx) => {
        await trx.updateTable('invoiceable_items').set({ quantity: 1 }).where('id', '=', item.id).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await revisions.token(scope)).toBe(token);
    await t.db.store.db
      .updateTable('invoiceable_items')
      .set({ quantity: 1 })
      .where('id', '=', item.id)
      .execute();
    expect(await revisions.token(scope)).not.toBe(token);
  });

  it('bumps the rate change counter for any rate change write, whatever code makes it', async () => {
    const token = await revisions.token('rate_changes');
    await t.db.store.db.deleteFrom('rate_changes').where('id', '=', 'none').execute();
    const afterDelete = await revisions.token('rate_changes');
    // PostgreSQL bumps once per statement (even one that matched nothing); SQLite once per row.
    if (dialect === 'postgres') expect(afterDelete).not.toBe(token);
    const facility = buildFacility({ company_id: t.world.company.id });
    const tenant = buildTenant({ facility_id: facility.id });
    const unit = buildUnit({ facility_id: facility.id });
    await t.load({ facilities: [facility], tenants: [tenant], units: [unit] });
    const loaded = await revisions.token('rate_changes');
    await t.load({
      rate_changes: [buildRateChange({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id })],
    });
    expect(await revisions.token('rate_changes')).not.toBe(loaded);
  });

  // SQLite reads a token without waiting (tokenNow); PostgreSQL shares its reads.
  if (dialect === 'postgres')
    it('are read for every request that asked while a read was out by one statement, begun after they asked', async () => {
      const scope = `items:${t.world.facility.id}` as const;
      const before = await revisions.token(scope);
      t.db.queries.length = 0;
      // The first starts a read at once; the others asked while it is out wait for one read after it.
      const first = revisions.token(scope);
      const later = Array.from({ length: 20 }, (_, i) =>
        revisions.token(i % 2 === 0 ? scope : 'credentials'),
      );
      const [firstToken, ...laterTokens] = await Promise.all([first, ...later]);
      expect(t.db.queries.filter((q) => /data_revisions/.test(q))).toHaveLength(2);
      expect([firstToken, ...laterTokens.filter((_, i) => i % 2 === 0)]).toEqual(Array(11).fill(before));

      // A write committed before a request asks is in the token it gets, whatever read was out then.
      const pending = revisions.token(scope);
      await t.load({ invoiceable_items: [buildItem({ facility_id: t.world.facility.id })] });
      const after = await revisions.token(scope);
      await pending;
      expect(after).not.toBe(before);
    });

  // A read that never answers must not hold the requests queued behind it.
  if (dialect === 'postgres')
    it('gives up on a shared read that does not answer within its deadline, and reads again after it', async () => {
      const stalled = new RevisionsRepository(t.db.store.db, null, 300);
      const scope = `items:${t.world.facility.id}` as const;
      let locked!: () => void;
      let release!: () => void;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const locking = t.db.store.db.transaction().execute(async (trx) => {
        await sql`lock table data_revisions in access exclusive mode`.execute(trx);
        locked();
        await held;
      });
      await isLocked;
      try {
        const first = stalled.token(scope);
        const queued = stalled.token('credentials');
        await expect(first).rejects.toThrow('the revision counters were not read within 300 ms');
        await expect(queued).rejects.toThrow('the revision counters were not read within 300 ms');
      } finally {
        release();
        await locking;
      }
      expect(await stalled.token(scope)).toMatch(/^\d+\.\d+$/);
    });
});

describe('revision tokens on a SQLite file written by another process', () => {
  // The clock stands still but for `ahead`: a busy machine's slow write must not age the token.
  let ahead = 0;
  beforeEach(() => {
    ahead = 0;
    const start = performance.now();
    jest.spyOn(performance, 'now').mockImplementation(() => start + ahead);
  });
  afterEach(() => jest.restoreAllMocks());

  type Store = ReturnType<typeof openStore>;
  /** One migrated SQLite file opened twice: the service's connection and another process's. */
  async function onSharedFile(
    test: (serving: Store, importing: Store, revisions: RevisionsRepository) => Promise<void>,
  ): Promise<void> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-tokens-'));
    const url = `sqlite:${path.join(dir, 'shared.db')}`;
    const serving = openStore(url);
    const importing = openStore(url);
    try {
      await migrateToLatest(serving.db);
      await test(serving, importing, new RevisionsRepository(serving.db, serving.sqlite));
    } finally {
      await importing.close();
      await serving.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('are read again once this connection has written, or SQLITE_TOKEN_MAX_AGE_MS has passed', async () => {
    await onSharedFile(async (serving, importing, revisions) => {
      const first = await revisions.token('flippers');

      // Another process's write: seen once the remembered token is old enough.
      await importing.db.insertInto('flippers').values({ name: 'late', enabled_globally: 1 }).execute();
      ahead = SQLITE_TOKEN_MAX_AGE_MS - 10;
      expect(await revisions.token('flippers')).toBe(first);
      ahead = SQLITE_TOKEN_MAX_AGE_MS + 1;
      const second = await revisions.token('flippers');
      expect(second).not.toBe(first);

      // This connection's own write: seen at once.
      await serving.db.deleteFrom('flippers').where('name', '=', 'late').execute();
      expect(await revisions.token('flippers')).not.toBe(second);
    });
  });

  it("tell at once whether a kept answer's tokens are all current, as each scope's read tells", async () => {
    await onSharedFile(async (serving, importing, revisions) => {
      const tokens: Array<[string, string]> = [
        ['credentials', await revisions.token('credentials')],
        ['flippers', await revisions.token('flippers')],
      ];
      expect(revisions.currentNow(tokens)).toBe(true);

      // Another process's write to one scope: seen once the remembered token is old enough.
      await importing.db.insertInto('flippers').values({ name: 'late', enabled_globally: 1 }).execute();
      ahead = SQLITE_TOKEN_MAX_AGE_MS - 10;
      expect(revisions.currentNow(tokens)).toBe(true);
      ahead = SQLITE_TOKEN_MAX_AGE_MS + 1;
      expect(revisions.currentNow(tokens)).toBe(false);
      expect(revisions.currentNow(tokens.slice(0, 1))).toBe(true);

      // This connection's own write: seen at once.
      tokens[1][1] = await revisions.token('flippers');
      expect(revisions.currentNow(tokens)).toBe(true);
      await serving.db.deleteFrom('flippers').where('name', '=', 'late').execute();
      expect(revisions.currentNow(tokens)).toBe(false);

      // Inside a transaction open on the connection, a token to be read again cannot be told at once.
      tokens[1][1] = await revisions.token('flippers');
      ahead += SQLITE_TOKEN_MAX_AGE_MS + 1;
      serving.sqlite!.exec('begin');
      try {
        expect(revisions.currentNow(tokens)).toBe(false);
      } finally {
        serving.sqlite!.exec('rollback');
      }
      expect(revisions.currentNow(tokens)).toBe(true);
    });
  });
});

/** A processor that holds each charge until the test lets it decline. */
class HeldGateway implements PaymentGateway {
  readonly name = 'held';
  readonly deadlineMs = 20_000;
  reached!: Promise<void>;
  private arrive!: () => void;
  private answer!: (result: ChargeResult) => void;

  constructor() {
    this.expect();
  }

  expect(): void {
    this.reached = new Promise((resolve) => (this.arrive = resolve));
  }

  charge(_request: ChargeRequest): Promise<ChargeResult> {
    this.arrive();
    return new Promise((resolve) => (this.answer = resolve));
  }

  decline(): void {
    this.answer({ approved: false, message: 'card declined' });
  }

  async void(): Promise<void> {}
}

describeEachDialect('a kept page and a payment still open', (dialect) => {
  it('never keeps what a payment that is rolled back had written', async () => {
    const db = await createTestStore(dialect);
    const world = buildWorld();
    await importDataset(db.store, DATASET_PLANS, worldDataset(world));
    const tenant = buildTenant({ facility_id: world.facility.id });
    const item = buildItem({ facility_id: world.facility.id, quantity: 10 });
    await importDataset(db.store, DATASET_PLANS, {
      version: 1,
      tenants: [tenant],
      invoiceable_items: [item],
    });
    const gateway = new HeldGateway();
    const { app, services } = await createInstance(db.store, { paymentGateway: gateway });
    const url = `/v1/${world.facility.id}/invoiceable_items/retail`;
    const headers = {
      authorization: `Bearer ${world.client.bearer_token}`,
      'content-type': 'application/json',
    };
    const stock = async (pending?: Promise<LightMyRequestResponse>) => {
      const res = await (pending ?? app.inject({ method: 'GET', url, headers }));
      expect(res.statusCode).toBe(200);
      return res.json().invoiceable_items.find((i: { id: string }) => i.id === item.id).quantity;
    };
    const pay = (method: Record<string, unknown>) =>
      app.inject({
        method: 'POST',
        url: `/v1/${world.facility.id}/invoiceable_items/retail_payment`,
        headers,
        payload: JSON.stringify(payment([line(item, 2)], method, { tenant_id: tenant.id })),
      });
    try {
      expect(await stock()).toBe(10);

      // The card payment takes the stock, then waits for the processor inside its transaction.
      const declined = pay(creditCard());
      await gateway.reached;
      // A page request reads its counter while the payment is still open (the test waits for
      // that read to begin, however long it takes), then the payment is declined and rolled back.
      // (Since the charge is made with no transaction open, the read may take the token at once.)
      const read = services.revisions.token.bind(services.revisions);
      const readNow = services.revisions.tokenNow.bind(services.revisions);
      const asked = new Promise<void>((resolve) => {
        jest.spyOn(services.revisions, 'token').mockImplementation((scope) => {
          if (scope === `items:${world.facility.id}`) resolve();
          return read(scope);
        });
        jest.spyOn(services.revisions, 'tokenNow').mockImplementation((scope) => {
          if (scope === `items:${world.facility.id}`) resolve();
          return readNow(scope);
        });
      });
      const during = app.inject({ method: 'GET', url, headers });
      await asked;
      gateway.decline();
      expect((await declined).statusCode).toBe(400);
      expect(await stock(during)).toBe(10);

      // A payment that commits moves the counter on: the next answer shows its stock, not a page
      // kept from the rolled-back one.
      expect((await pay(cash('100'))).statusCode).toBe(200);
      expect(await stock()).toBe(8);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
