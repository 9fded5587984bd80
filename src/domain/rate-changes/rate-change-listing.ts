import { formatInstant } from '../shared/time';
import type { RateChange } from './rate-changes.types';

/**
 * A rate change as the contract lists it (2.9): its JSON text, fields in the contract's order,
 * changed_at in its facility's zone. Each rate change keeps this text beside its columns (migration
 * 20261125140000_rate_change_listings), written when the row is and again when its facility's
 * name or zone, its tenant's name or its unit's name changes; a page is then read as the texts of
 * its rows, joined by the database, instead of being built and serialized row by row.
 */
export function rateChangeListing(change: RateChange): string {
  return JSON.stringify({
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
  });
}
