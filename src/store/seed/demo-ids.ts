import type { Store } from '../database';
import type { DemoCompany } from './demo-data';

/** Real ids of the demo facility, one of each kind an endpoint names. */
export interface DemoIds {
  companyId: string;
  facilityId: string;
  tenantId: string;
  unitId: string;
  ledgerId: string;
  eventId: string;
  documentId: string;
  retailItemId: string;
  completedOn: string | null;
}

/** The demo facility's ids, one of each kind; null when its demo records are missing. */
export async function demoIds(store: Store, company: DemoCompany): Promise<DemoIds | null> {
  const db = store.db;
  const facilityId = company.facilities[0].id;
  const document = await db
    .selectFrom('event_documents')
    .innerJoin('events', 'events.id', 'event_documents.event_id')
    .innerJoin('ledgers', 'ledgers.id', 'events.ledger_id')
    .select([
      'event_documents.id as documentId',
      'events.id as eventId',
      'ledgers.id as ledgerId',
      'ledgers.tenant_id as tenantId',
      'ledgers.unit_id as unitId',
    ])
    .where('events.facility_id', '=', facilityId)
    .where('events.type', '=', 'move_in_unit_event')
    .where('event_documents.esignable', '=', 1)
    .orderBy('events.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const retail = await db
    .selectFrom('invoiceable_items')
    .select('id')
    .where('facility_id', '=', facilityId)
    .where('kind', '=', 'retail')
    .where('quantity', '>', 0)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!document || !retail) return null;
  const action = await db
    .selectFrom('rate_applied_actions')
    .select('completed_on')
    .where('facility_id', '=', facilityId)
    .orderBy('completed_on', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    companyId: company.id,
    facilityId,
    ...document,
    retailItemId: retail.id,
    completedOn: action?.completed_on ?? null,
  };
}
