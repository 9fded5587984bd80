import * as RateChangeUpdate from './rate-change-update.contract';
import { LISTING_SOURCE, listingOfRow } from './rate-changes.repository';
import { rateChanges } from './rate-changes.tables';
import type { RateChange } from './rate-changes.types';
import { rowCodec } from '../../store/rows';
import type { Dataset } from '../../store/dataset/dataset.types';
import type { PlanContext } from '../../store/dataset/import.plan';
import type { ResolvedReferences } from '../../store/dataset/import.references';
import { cents, instant, lower, sortKey, type PlanBuilder } from '../../store/dataset/plans/plan-builder';

/** A rate change's own columns; the company, sort keys and listing are the import's to write. */
const rateChangeCodec = rowCodec(rateChanges, ['company_id', 'facility_sort', 'tenant_sort', 'listing']);

/**
 * Rate changes, with the names, sort keys and listing of each kept beside it; then the rate changes
 * already stored kept in step with the facilities, tenants and units the file renames.
 */
export function planRateChanges(plan: PlanBuilder, data: Dataset, { resolved }: PlanContext): void {
  planRateChangeRows(plan, data, resolved);
  planRateChangesInStep(plan, data, resolved);
}

/** Rate changes, with the names, sort keys and listing of each kept beside it. */
function planRateChangeRows(plan: PlanBuilder, data: Dataset, resolved: ResolvedReferences): void {
  plan.upsertRows(
    'rate_changes',
    (data.rate_changes ?? []).map((r) => {
      const facility = resolved.known.facility.get(lower(r.facility_id));
      const tenant = resolved.known.tenant.get(lower(r.tenant_id));
      const unit = resolved.known.unit.get(lower(r.unit_id));
      const change: RateChange = {
        id: lower(r.id),
        facilityId: lower(r.facility_id),
        facilityName: facility?.name ?? '',
        timeZone: facility?.time_zone ?? 'UTC',
        tenantId: lower(r.tenant_id),
        tenantName: tenant?.name ?? '',
        unitId: lower(r.unit_id),
        unitName: unit?.name ?? '',
        changedAt: instant(r.changed_at),
        oldRateCents: cents(r.old_rate),
        newRateCents: cents(r.new_rate),
        effectiveOnDate: r.effective_on_date,
        createdBy: r.created_by ?? null,
      };
      return {
        ...rateChangeCodec.write(change),
        company_id: facility?.company_id ?? '',
        facility_sort: sortKey(change.facilityName),
        tenant_sort: sortKey(change.tenantName),
        listing: RateChangeUpdate.listing(change),
      };
    }),
  );
}

/** A statement run once for each parameter row; nothing when there are none. */
function statement(plan: PlanBuilder, sql: string, params: unknown[][]): void {
  if (params.length) plan.push({ kind: 'statement', sql, params });
}

/** Each listing of the rate changes whose `column` is one of `ids` made again from its row. */
function rewriteListings(plan: PlanBuilder, column: string, ids: string[]): void {
  if (ids.length === 0) return;
  plan.push({
    kind: 'rewrite',
    table: 'rate_changes',
    key: 'id',
    column: 'listing',
    select: `${LISTING_SOURCE} where rc.${column} = ?`,
    params: ids.map((id) => [id]),
    value: (row) => [row[0], listingOfRow(row)],
  });
}

/**
 * Renamed facilities, tenants and units, a facility moved to another company or zone, keep their
 * rate changes in step: sort keys, names and listings. Only records already stored under another
 * name (or company, or zone) can have stale rows. A facility's name and company are kept in its
 * rate changes' rows, its name and zone in their listings; each write follows only what changed.
 */
function planRateChangesInStep(plan: PlanBuilder, data: Dataset, resolved: ResolvedReferences): void {
  if (!resolved.stored) return;
  const stored = resolved.stored;
  const facilities = data.facilities ?? [];
  const moved = facilities.filter((f) => {
    const was = stored.facilities.get(lower(f.id));
    return was !== undefined && (was.name !== f.name || was.company_id !== lower(f.company_id));
  });
  const relisted = facilities.filter((f) => {
    const was = stored.facilities.get(lower(f.id));
    return was !== undefined && (was.name !== f.name || was.time_zone !== (f.time_zone ?? 'UTC'));
  });
  const tenantName = (t: { first_name: string; last_name: string }) => `${t.first_name} ${t.last_name}`;
  const renamedTenants = (data.tenants ?? []).filter((t) => {
    const was = stored.tenants.get(lower(t.id));
    return was !== undefined && was !== tenantName(t);
  });
  const renamedUnits = (data.units ?? []).filter((u) => {
    const was = stored.units.get(lower(u.id));
    return was !== undefined && was !== u.name;
  });
  statement(
    plan,
    'update rate_changes set facility_sort = ?, company_id = ? where facility_id = ?',
    moved.map((f) => [sortKey(f.name), lower(f.company_id), lower(f.id)]),
  );
  statement(
    plan,
    'update rate_changes set tenant_sort = ?, tenant_name = ? where tenant_id = ?',
    renamedTenants.map((t) => [sortKey(tenantName(t)), tenantName(t), lower(t.id)]),
  );
  statement(
    plan,
    'update rate_changes set unit_name = ? where unit_id = ?',
    renamedUnits.map((u) => [u.name, lower(u.id)]),
  );
  // Last, so each listing is made from the names and zones written above.
  rewriteListings(
    plan,
    'facility_id',
    relisted.map((f) => lower(f.id)),
  );
  rewriteListings(
    plan,
    'tenant_id',
    renamedTenants.map((t) => lower(t.id)),
  );
  rewriteListings(
    plan,
    'unit_id',
    renamedUnits.map((u) => lower(u.id)),
  );
}
