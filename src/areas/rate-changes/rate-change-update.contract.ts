import { Type, type Static } from '@sinclair/typebox';
import type { RateChange } from './rate-changes.types';
import { centsToAmount } from '../../kernel/money';
import { formatInstant } from '../../kernel/time';
import { cases, type ViewOf } from '../../contract/cases';
import { Day, Instant, Money, Text, Uuid } from '../../contract/kit';

/** A rate change update as the contract writes it (2.9): fields in its order, changed_at in the facility's zone. */
export const schema = Type.Object(
  {
    id: Uuid(),
    facility_name: Text(),
    tenant_id: Uuid(),
    tenant_name: Text(),
    unit_id: Uuid(),
    unit_name: Text(),
    changed_at: Instant(),
    old_rate: Money(),
    new_rate: Money(),
    effective_on_date: Day(),
  },
  { $id: 'RateChangeUpdate' },
);

const rateChangeUpdateCases = cases(schema);

/** A rate change as both transports show it: the contract's fields, and for GraphQL its facility and creator. */
export type RateChangeUpdateView = ViewOf<typeof schema> & Pick<RateChange, 'facilityId' | 'createdBy'>;

/**
 * The rate change with its rates as money in units, changedAt in its facility's zone. Spread, not
 * destructured with a rest: V8 copies a rest into a slow dictionary object, which made a page of
 * 2,000 three times as slow to present; the record's other fields ride along unread.
 */
export function present(change: RateChange): RateChangeUpdateView {
  return {
    ...change,
    changedAt: formatInstant(change.changedAt, change.timeZone),
    oldRate: centsToAmount(change.oldRateCents),
    newRate: centsToAmount(change.newRateCents),
  };
}

export function toContract(change: RateChange): Static<typeof schema> {
  return rateChangeUpdateCases.toContract(present(change));
}

/*
 * A listing is a row as the contract lists it, as JSON text. The store keeps each rate change's
 * listing beside its columns (migration 20261125140000_rate_change_listings), written with the row
 * and again when its facility's name or zone, its tenant's name or its unit's name changes; a page
 * is then the texts of its rows joined by the database, instead of 5,500 values made into objects
 * and serialized again on every cold request.
 */

/** A rate change's listing. */
export function listing(change: RateChange): string {
  return JSON.stringify(toContract(change));
}
