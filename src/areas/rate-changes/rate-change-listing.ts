import { formatInstant } from '../../kernel/time';
import type { RateChange } from './rate-changes.types';

/*
 * A listing is a row as the contract lists it, as JSON text. The store keeps each rate change's
 * listing beside its columns (migration 20261125140000_rate_change_listings), written with the row
 * and again when its facility's name or zone, its tenant's name or its unit's name changes; a page
 * is then the texts of its rows joined by the database, instead of 5,500 values made into objects
 * and serialized again on every cold request.
 */

/** A rate change update as the contract writes it (2.9): fields in its order, changed_at in the facility's zone. */
export function contractRateChange(change: RateChange) {
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

/** A rate change's listing. */
export function rateChangeListing(change: RateChange): string {
  return JSON.stringify(contractRateChange(change));
}
