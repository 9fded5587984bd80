import { Type, type Static } from '@sinclair/typebox';
import type { RateChange } from './rate-changes.types';
import { formatInstant } from '../../kernel/time';
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

export function toContract(change: RateChange): Static<typeof schema> {
  return {
    id: change.id,
    facility_name: change.facilityName,
    tenant_id: change.tenantId,
    tenant_name: change.tenantName,
    unit_id: change.unitId,
    unit_name: change.unitName,
    changed_at: formatInstant(change.changedAt, change.timeZone),
    old_rate: change.oldRate,
    new_rate: change.newRate,
    effective_on_date: change.effectiveOnDate,
  };
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
