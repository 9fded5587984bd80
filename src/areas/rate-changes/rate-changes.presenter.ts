import type { RateChange } from './rate-changes.types';
import { formatInstant } from '../../kernel/time';

/** A rate change as both transports show it: changedAt in its facility's zone. */
export interface RateChangeUpdateView {
  id: string;
  facilityId: string;
  facilityName: string;
  tenantId: string;
  tenantName: string;
  unitId: string;
  unitName: string;
  changedAt: string;
  oldRate: number;
  newRate: number;
  effectiveOnDate: string;
  createdBy: number | null;
}

export function presentRateChange(change: RateChange): RateChangeUpdateView {
  return {
    id: change.id,
    facilityId: change.facilityId,
    facilityName: change.facilityName,
    tenantId: change.tenantId,
    tenantName: change.tenantName,
    unitId: change.unitId,
    unitName: change.unitName,
    changedAt: formatInstant(change.changedAt, change.timeZone),
    oldRate: change.oldRate,
    newRate: change.newRate,
    effectiveOnDate: change.effectiveOnDate,
    createdBy: change.createdBy,
  };
}
