import { sql } from 'kysely';
import {
  buildDiscount,
  buildDocument,
  buildEvent,
  buildInsurance,
  buildItem,
  buildLedger,
  buildRateAppliedAction,
  buildRateChange,
  buildService,
  buildTenant,
  buildUnit,
} from './factories';
import type { TestApp } from './http';

/** Records of every kind in the world's facility, so each route has something real to name. */
export interface RichWorld {
  tenantId: string;
  unitId: string;
  ledgerId: string;
  /** A move-in event with an esignable lease. */
  eventId: string;
  documentId: string;
  /** Retail, 100,000 in stock, so many payments never run out. */
  retailItemId: string;
  /** The day of the rate applied action. */
  rateAppliedActionsOn: string;
  /** A window holding the rate change. */
  rateChanges: { updatedAfter: string; updatedBefore: string };
  /** A move-in review session and one of its documents. */
  session: { id: string; documentId: string };
}

export async function loadRichWorld(t: TestApp): Promise<RichWorld> {
  const facilityId = t.world.facility.id;
  const tenant = buildTenant({ facility_id: facilityId });
  const unit = buildUnit({ facility_id: facilityId });
  const ledger = buildLedger({ facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id });
  const event = buildEvent({ facility_id: facilityId, ledger_id: ledger.id });
  const document = buildDocument({ event_id: event.id });
  const retail = buildItem({ facility_id: facilityId, quantity: 100_000 });
  await t.load({
    flippers: [{ name: 'online_payments', facility_ids: [facilityId] }],
    tenants: [tenant],
    units: [unit],
    ledgers: [ledger],
    ledger_insurances: [buildInsurance({ ledger_id: ledger.id })],
    ledger_services: [buildService({ ledger_id: ledger.id })],
    ledger_discounts: [buildDiscount({ ledger_id: ledger.id })],
    rate_applied_actions: [
      buildRateAppliedAction({ facility_id: facilityId, new_ledger_id: ledger.id, unit_id: unit.id }),
    ],
    events: [event],
    event_documents: [document],
    invoiceable_items: [
      retail,
      buildItem({ facility_id: facilityId, kind: 'fee', required_at_move_in: true }),
      buildItem({ facility_id: facilityId, kind: 'insurance' }),
      buildItem({ facility_id: facilityId, kind: 'service' }),
      buildItem({ facility_id: facilityId, rental_center_eligible: true, is_rental_center_lock: true }),
    ],
    rate_changes: [buildRateChange({ facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id })],
  });
  const review = await t.postJson(`/v1/${facilityId}/move_ins/review_cost`, {
    move_in: { unit_id: unit.id, tenant_id: tenant.id },
  });
  if (review.statusCode !== 200) throw new Error(`review_cost answered ${review.statusCode}: ${review.body}`);
  const moveIn = review.json().move_in as {
    session_id: string;
    documents: Array<{ session_document_id: string }>;
  };
  return {
    tenantId: tenant.id,
    unitId: unit.id,
    ledgerId: ledger.id,
    eventId: event.id,
    documentId: document.id,
    retailItemId: retail.id,
    rateAppliedActionsOn: '2026-11-20',
    rateChanges: { updatedAfter: '2026-10-01T00:00:00Z', updatedBefore: '2026-12-01T00:00:00Z' },
    session: { id: moveIn.session_id, documentId: moveIn.documents[0].session_document_id },
  };
}

/** Every table's row count, in one statement: what a refused request must leave as it was. */
export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const db = t.db.store.db;
  // The store reads the tables of its search path; this store's schema is the first on it.
  const current = t.db.store.sqlite
    ? undefined
    : (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema;
  const tables = (await db.introspection.getTables())
    .filter((table) => current === undefined || table.schema === current)
    .map((table) => table.name)
    .sort();
  const columns = tables.map((name) => sql`(select count(*) from ${sql.table(name)}) as ${sql.ref(name)}`);
  const { rows } = await sql<Record<string, number | string>>`select ${sql.join(columns)}`.execute(db);
  return Object.fromEntries(Object.entries(rows[0]).map(([name, n]) => [name, Number(n)]));
}
