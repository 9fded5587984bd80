import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, print, type DefinitionNode } from 'graphql';
import type {
  CompanyRateChangesQuery,
  CompanyRateChangesQueryVariables,
  FacilityOverviewQuery,
  FacilityOverviewQueryVariables,
  LedgerTenantNotesQuery,
  LedgerTenantNotesQueryVariables,
} from '../generated/graphql';
import {
  buildInsurance,
  buildItem,
  buildLedger,
  buildRateChange,
  buildTenant,
  buildUnit,
} from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { operation, run } from './graphql-client';

const FacilityOverview = operation<FacilityOverviewQuery, FacilityOverviewQueryVariables>(
  'examples.graphql',
  'FacilityOverview',
);
const LedgerTenantNotes = operation<LedgerTenantNotesQuery, LedgerTenantNotesQueryVariables>(
  'examples.graphql',
  'LedgerTenantNotes',
);
const CompanyRateChanges = operation<CompanyRateChangesQuery, CompanyRateChangesQueryVariables>(
  'examples.graphql',
  'CompanyRateChanges',
);

/** The README's three example queries answer as the README says. */
describeEachDialect('GraphQL README examples', (dialect) => {
  let t: TestApp;
  const ids = { ledger: '', unit: '' };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facility_id = t.world.facility.id;
    const tenant = buildTenant({ facility_id, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id, name: 'B-7', rate: 120.25 });
    const ledger = buildLedger({ facility_id, tenant_id: tenant.id, unit_id: unit.id });
    Object.assign(ids, { ledger: ledger.id, unit: unit.id });
    await t.load({
      flippers: [{ name: 'online_move_ins', facility_ids: [facility_id] }],
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
      ledger_insurances: [buildInsurance({ ledger_id: ledger.id, amount: 12.5 })],
      invoiceable_items: Array.from({ length: 7 }, (_, i) =>
        buildItem({ facility_id, description: `Box ${i + 1}`, quantity: 10 + i }),
      ),
      rate_changes: [
        buildRateChange({
          facility_id,
          tenant_id: tenant.id,
          unit_id: unit.id,
          changed_at: '2026-11-01T12:00:00Z',
          old_rate: 110,
          new_rate: 120.25,
        }),
      ],
    });
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
    await t.postJson(`/v1/${facility_id}/notes`, {
      note: { note_text: 'Asked about a larger unit', ledger_id: ledger.id },
    });
  });
  afterAll(() => t.close());

  it('1. FacilityOverview: flags and the first page of retail items', async () => {
    const res = await run(t, FacilityOverview, { facilityId: t.world.facility.id });
    expect(res.errors).toBeUndefined();
    expect(res.data?.facility).toEqual({
      name: 'Main Street',
      timeZone: 'America/New_York',
      flippers: ['online_move_ins'],
      invoiceableItems: {
        entries: [1, 2, 3, 4, 5].map((n) => ({
          description: `Box ${n}`,
          amount: 10,
          total: 10.8,
          quantity: 9 + n,
        })),
        pagination: { currentPage: 1, totalPages: 2, totalEntries: 7, nextPage: 2 },
      },
    });
  });

  it('2. LedgerTenantNotes: ledger -> unit, insurance, tenant -> notes', async () => {
    const res = await run(t, LedgerTenantNotes, { facilityId: t.world.facility.id, ledgerId: ids.ledger });
    expect(res.errors).toBeUndefined();
    expect(res.data?.facility?.ledger).toEqual({
      id: ids.ledger,
      unit: { name: 'B-7', rate: 120.25 },
      insurance: { data: { description: 'Tenant protection 2000' }, amount: 12.5 },
      tenant: {
        name: 'Grace Hopper',
        email: 'ada@example.com',
        notes: [
          {
            createdAt: '2026-11-20T10:00:00-05:00',
            createdBy: { name: t.world.client.name },
            notes: [{ note: 'Asked about a larger unit' }],
          },
        ],
      },
    });
  });

  it('3. CompanyRateChanges: a window of rate changes, each with its unit ledgers', async () => {
    const res = await run(t, CompanyRateChanges, {
      companyId: t.world.company.id,
      after: '2026-10-01T00:00:00-04:00',
      before: '2026-12-01T00:00:00-05:00',
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.company).toEqual({
      name: 'Acme Storage',
      rateChangeUpdates: {
        entries: [
          {
            facilityName: 'Main Street',
            tenantName: 'Grace Hopper',
            unitName: 'B-7',
            changedAt: '2026-11-01T07:00:00-05:00',
            oldRate: 110,
            newRate: 120.25,
            unit: { ledgers: [{ id: ids.ledger }] },
          },
        ],
        pagination: {
          currentPage: 1,
          totalPages: 1,
          perPage: 50,
          totalEntries: 1,
          previousPage: null,
          nextPage: null,
        },
      },
    });
  });
});

describe('GraphQL README examples text', () => {
  const named = (source: string) =>
    new Map(
      parse(source)
        .definitions.filter((d): d is DefinitionNode & { name: { value: string } } => 'name' in d && !!d.name)
        .map((d) => [d.name.value, print(d)]),
    );

  it('shows exactly the operations the tests above run', () => {
    const readme = readFileSync(path.join(__dirname, '../../docs/graphql.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## GraphQL\n'));
    const blocks = [...section.matchAll(/```graphql\n(query [\s\S]*?)```/g)].map((m) => m[1]);
    const shown = new Map(blocks.flatMap((block) => [...named(block)]));
    // The examples' operations, and the connection the front-end example walks (connections.test.ts).
    const tested = new Map([
      ...named(readFileSync(path.join(__dirname, 'operations/examples.graphql'), 'utf8')),
      ...named(readFileSync(path.join(__dirname, 'operations/connections.graphql'), 'utf8')),
    ]);
    expect([...shown.keys()]).toEqual([
      'FacilityOverview',
      'LedgerTenantNotes',
      'CompanyRateChanges',
      'InvoiceableItemsConnection',
    ]);
    for (const [name, text] of shown) expect(text).toBe(tested.get(name));
  });
});
