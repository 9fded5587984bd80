import { amountToCents } from '../../domain/shared/money';
import { hashToken } from '../../auth/auth.service';
import { itemListing } from '../../domain/invoiceable-items/item-listing';
import { rateChangeListing } from '../../domain/rate-changes/rate-change-listing';
import { ITEM_COLUMNS, itemOf, type ItemArray } from '../repositories/invoiceable-items.repository';
import { centsToAmount } from '../../domain/shared/money';
import { LISTING_SOURCE, listingOfRow } from '../repositories/rate-changes.repository';
import { consumerSecretPlace } from '../repositories/clients.repository';
import type { SecretBox } from '../../domain/shared/secret-box';
import type { WriteStep } from './bulk-writer';
import type { Dataset } from './dataset.types';
import { storedInstant } from './import.check';
import type { ResolvedReferences } from './import.references';

export type ImportCounts = Record<string, number>;

/** The case-insensitive sort key of a name, compared byte-wise on both dialects. */
export function sortKey(name: string): string {
  return name.toLowerCase();
}

const flag = (value: boolean | undefined, fallback: boolean): 0 | 1 => ((value ?? fallback) ? 1 : 0);
const lower = (id: string) => id.toLowerCase();
// Checked by stage 1: every amount has at most two decimals, every instant an offset.
const cents = (value: number): number => amountToCents(value)!;
const instant = (value: string): string => storedInstant(value)!;

/**
 * Stage 3 of an import: the writes, table by table, for a file that passed stages 1 and 2. An
 * upsert per table (the same ids again update their records), the lists a record owns replaced
 * whole (flipper actors, amount tiers), and the rate changes' sort keys kept in step with renamed
 * facilities and tenants. Reads nothing: what it needs of the database, stage 2 found.
 */
export function planWrites(
  data: Dataset,
  resolved: ResolvedReferences,
  now: string,
  secrets?: SecretBox,
): { steps: WriteStep[]; counts: ImportCounts } {
  const steps: WriteStep[] = [];
  const counts: ImportCounts = {};
  const upsert = (table: string, columns: string[], rows: unknown[][], key: string[] = ['id']) => {
    counts[table] = (counts[table] ?? 0) + rows.length;
    steps.push({ kind: 'upsert', table, columns, key, rows });
  };

  upsert(
    'companies',
    ['id', 'name'],
    (data.companies ?? []).map((c) => [lower(c.id), c.name]),
  );

  upsert(
    'facilities',
    ['id', 'company_id', 'name', 'time_zone', 'tenant_payments_disabled'],
    (data.facilities ?? []).map((f) => {
      const zone = f.time_zone ?? 'UTC';
      return [lower(f.id), lower(f.company_id), f.name, zone, flag(f.tenant_payments_disabled, false)];
    }),
  );

  if (data.flippers?.length) {
    upsert(
      'flippers',
      ['name', 'enabled_globally'],
      data.flippers.map((f) => [f.name, flag(f.enabled_globally, false)]),
      ['name'],
    );
    steps.push({
      kind: 'deleteIn',
      table: 'flipper_actors',
      column: 'flipper_name',
      values: data.flippers.map((f) => f.name),
    });
    const actors: unknown[][] = [];
    data.flippers.forEach((f) => {
      for (const id of new Set((f.company_ids ?? []).map(lower))) {
        actors.push([f.name, 'company', id]);
      }
      for (const id of new Set((f.facility_ids ?? []).map(lower))) {
        actors.push([f.name, 'facility', id]);
      }
    });
    upsert('flipper_actors', ['flipper_name', 'actor_type', 'actor_id'], actors, [
      'flipper_name',
      'actor_type',
      'actor_id',
    ]);
  }

  upsert(
    'tenants',
    ['id', 'facility_id', 'first_name', 'last_name', 'email', 'phone'],
    (data.tenants ?? []).map((t) => {
      return [lower(t.id), lower(t.facility_id), t.first_name, t.last_name, t.email ?? null, t.phone ?? null];
    }),
  );

  upsert(
    'units',
    ['id', 'facility_id', 'name', 'rate_cents'],
    (data.units ?? []).map((u) => {
      return [lower(u.id), lower(u.facility_id), u.name, cents(u.rate)];
    }),
  );

  upsert(
    'ledgers',
    ['id', 'facility_id', 'tenant_id', 'unit_id'],
    (data.ledgers ?? []).map((l) => {
      return [lower(l.id), lower(l.facility_id), lower(l.tenant_id), lower(l.unit_id)];
    }),
  );

  upsert(
    'ledger_insurances',
    [
      'id',
      'ledger_id',
      'effective_date',
      'cancel_date',
      'amount_cents',
      'description',
      'retain_type',
      'product_code',
      'policy_number',
      'retain_amount',
      'coverage_amount',
      'coverage_percentage',
      'insurance_provider_key',
    ],
    (data.ledger_insurances ?? []).map((r) => {
      const d = r.data;
      return [
        lower(r.id),
        lower(r.ledger_id),
        r.effective_date,
        r.cancel_date ?? null,
        cents(r.amount),
        d.description,
        d.retain_type,
        d.product_code,
        d.policy_number,
        d.retain_amount,
        d.coverage_amount,
        d.coverage_percentage,
        d.insurance_provider_key,
      ];
    }),
  );

  upsert(
    'ledger_services',
    ['id', 'ledger_id', 'effective_date', 'cancel_date', 'amount_cents', 'description', 'product_code'],
    (data.ledger_services ?? []).map((r) => {
      return [
        lower(r.id),
        lower(r.ledger_id),
        r.effective_date,
        r.cancel_date ?? null,
        cents(r.amount),
        r.data.description,
        r.data.product_code,
      ];
    }),
  );

  upsert(
    'ledger_discounts',
    ['id', 'ledger_id', 'name', 'kind', 'description', 'start_date', 'end_date', 'min_occupancy_months'],
    (data.ledger_discounts ?? []).map((r) => {
      return [
        lower(r.id),
        lower(r.ledger_id),
        r.name,
        r.kind,
        r.description,
        r.start_date,
        r.end_date ?? null,
        r.min_occupancy_months ?? null,
      ];
    }),
  );

  upsert(
    'rate_applied_actions',
    [
      'id',
      'facility_id',
      'applied_rate_name',
      'applied_rate_cents',
      'standard_rate_cents',
      'source',
      'completed_on',
      'completed_by',
      'employee_id',
      'user_id',
      'time_completed',
      'event',
      'old_ledger_id',
      'new_ledger_id',
      'unit_id',
      'lead_id',
    ],
    (data.rate_applied_actions ?? []).map((r) => {
      return [
        lower(r.id),
        lower(r.facility_id),
        r.rate_info.applied_rate.name,
        cents(r.rate_info.applied_rate.amount),
        cents(r.rate_info.standard_rate),
        r.source,
        r.completed_on,
        r.completed_by ?? '',
        r.employee_id ?? '',
        r.user_id ?? '',
        instant(r.time_completed),
        r.event,
        r.old_ledger_id ? lower(r.old_ledger_id) : '',
        lower(r.new_ledger_id),
        lower(r.unit_id),
        lower(r.lead_id),
      ];
    }),
  );

  upsert(
    'events',
    ['id', 'facility_id', 'type', 'ledger_id', 'created_at'],
    (data.events ?? []).map((e) => {
      return [
        lower(e.id),
        lower(e.facility_id),
        e.type,
        e.ledger_id ? lower(e.ledger_id) : null,
        instant(e.created_at),
      ];
    }),
  );

  upsert(
    'event_documents',
    ['id', 'event_id', 'description', 'type', 'is_relevant', 'esignable', 'created_at', 'body'],
    (data.event_documents ?? []).map((d) => {
      return [
        lower(d.id),
        lower(d.event_id),
        d.description,
        d.type ?? 'PrintTemplate',
        flag(d.is_relevant, true),
        flag(d.esignable, false),
        instant(d.created_at),
        d.body ?? '',
      ];
    }),
  );

  const items = data.invoiceable_items ?? [];
  // Each item's tiers, as rows of invoiceable_amounts, made once for its listing and its rows.
  const amounts: unknown[][] = [];
  upsert(
    'invoiceable_items',
    [...ITEM_COLUMNS, 'listing', 'listing_rest'],
    items.map((item) => {
      const row: ItemArray = [
        lower(item.id),
        lower(item.facility_id),
        item.kind,
        item.product_code,
        item.description,
        item.short_description ?? null,
        flag(item.required_at_move_in, false),
        flag(item.required_at_transfer, false),
        flag(item.show_in_sales_center, true),
        cents(item.tax_total),
        cents(item.total),
        item.kind === 'fee' ? (item.fee_category ?? 'other') : null,
        item.coverage_amount === undefined ? null : cents(item.coverage_amount),
        item.coverage_percentage ?? null,
        item.provider_name ?? null,
        item.provider_key ?? null,
        item.kind === 'retail' ? (item.quantity ?? 0) : (item.quantity ?? null),
        flag(item.is_rental_center_lock, false),
        flag(item.rental_center_eligible, false),
      ];
      const tiers = item.invoiceable_amounts.map((tier, position) => ({
        id: lower(tier.id),
        itemId: row[0],
        position,
        kind: tier.kind,
        amountHundredths: cents(tier.amount),
        limit: tier.limit ?? null,
      }));
      for (const tier of tiers) {
        amounts.push([tier.id, tier.itemId, tier.position, tier.amountHundredths, tier.kind, tier.limit]);
      }
      const listing = itemListing({ item: itemOf(row), tiers });
      return [...row, listing.text, listing.rest];
    }),
  );
  if (items.length) {
    steps.push({
      kind: 'deleteIn',
      table: 'invoiceable_amounts',
      column: 'invoiceable_item_id',
      values: items.map((item) => lower(item.id)),
    });
    upsert(
      'invoiceable_amounts',
      ['id', 'invoiceable_item_id', 'position', 'amount_cents', 'kind', 'limit_value'],
      amounts,
    );
  }

  upsert(
    'payment_methods',
    [
      'id',
      'facility_id',
      'tenant_id',
      'kind',
      'first_name',
      'last_name',
      'reuseable',
      'card_last4',
      'card_type',
      'expiration_date',
      'billing_address',
      'created_at',
    ],
    (data.payment_methods ?? []).map((p) => {
      return [
        lower(p.id),
        lower(p.facility_id),
        p.tenant_id ? lower(p.tenant_id) : null,
        p.kind,
        p.first_name,
        p.last_name,
        flag(p.reuseable, true),
        p.card_last4 ?? null,
        p.card_type ?? null,
        p.expiration_date ?? null,
        p.billing_address ? JSON.stringify(p.billing_address) : null,
        now,
      ];
    }),
  );

  upsert(
    'rate_changes',
    [
      'id',
      'company_id',
      'facility_id',
      'tenant_id',
      'unit_id',
      'changed_at',
      'old_rate_cents',
      'new_rate_cents',
      'effective_on_date',
      'created_by',
      'facility_sort',
      'tenant_sort',
      'tenant_name',
      'unit_name',
      'listing',
    ],
    (data.rate_changes ?? []).map((r) => {
      const facility = resolved.known.facility.get(lower(r.facility_id));
      const tenant = resolved.known.tenant.get(lower(r.tenant_id));
      const unit = resolved.known.unit.get(lower(r.unit_id));
      const change = {
        id: lower(r.id),
        facilityId: lower(r.facility_id),
        facilityName: facility?.name ?? '',
        timeZone: facility?.time_zone ?? 'UTC',
        tenantId: lower(r.tenant_id),
        tenantName: tenant?.name ?? '',
        unitId: lower(r.unit_id),
        unitName: unit?.name ?? '',
        changedAt: instant(r.changed_at),
        oldRate: centsToAmount(cents(r.old_rate)),
        newRate: centsToAmount(cents(r.new_rate)),
        effectiveOnDate: r.effective_on_date,
        createdBy: r.created_by ?? null,
      };
      return [
        change.id,
        facility?.company_id ?? '',
        change.facilityId,
        change.tenantId,
        change.unitId,
        change.changedAt,
        cents(r.old_rate),
        cents(r.new_rate),
        change.effectiveOnDate,
        change.createdBy,
        sortKey(change.facilityName),
        sortKey(change.tenantName),
        change.tenantName,
        change.unitName,
        rateChangeListing(change),
      ];
    }),
  );

  // Renamed facilities, tenants and units, a facility moved to another company or zone, keep their
  // rate changes in step: sort keys, names and listings. Only records already stored under another
  // name (or company, or zone) can have stale rows.
  if (resolved.stored) {
    const { facilities: storedFacilities, tenants: storedTenants, units: storedUnits } = resolved.stored;
    // A facility's name and company are kept in its rate changes' rows; its name and zone in their
    // listings. Each write follows only what changed.
    const storedFacility = (f: { id: string }) => storedFacilities.get(lower(f.id));
    const movedFacilities = (data.facilities ?? []).filter((f) => {
      const stored = storedFacility(f);
      return stored !== undefined && (stored.name !== f.name || stored.company_id !== lower(f.company_id));
    });
    if (movedFacilities.length) {
      steps.push({
        kind: 'statement',
        sql: 'update rate_changes set facility_sort = ?, company_id = ? where facility_id = ?',
        params: movedFacilities.map((f) => [sortKey(f.name), lower(f.company_id), lower(f.id)]),
      });
    }
    const relistedFacilities = (data.facilities ?? []).filter((f) => {
      const stored = storedFacility(f);
      return stored !== undefined && (stored.name !== f.name || stored.time_zone !== (f.time_zone ?? 'UTC'));
    });
    const renamedTenants = (data.tenants ?? []).filter((t) => {
      const stored = storedTenants.get(lower(t.id));
      return stored !== undefined && stored !== `${t.first_name} ${t.last_name}`;
    });
    if (renamedTenants.length) {
      steps.push({
        kind: 'statement',
        sql: 'update rate_changes set tenant_sort = ?, tenant_name = ? where tenant_id = ?',
        params: renamedTenants.map((t) => {
          const name = `${t.first_name} ${t.last_name}`;
          return [sortKey(name), name, lower(t.id)];
        }),
      });
    }
    const renamedUnits = (data.units ?? []).filter((u) => {
      const stored = storedUnits.get(lower(u.id));
      return stored !== undefined && stored !== u.name;
    });
    if (renamedUnits.length) {
      steps.push({
        kind: 'statement',
        sql: 'update rate_changes set unit_name = ? where unit_id = ?',
        params: renamedUnits.map((u) => [u.name, lower(u.id)]),
      });
    }
    // Last, so each listing is made from the names and zones written above.
    const rewriteListings = (column: string, ids: string[]) => {
      if (ids.length === 0) return;
      steps.push({
        kind: 'rewrite',
        table: 'rate_changes',
        key: 'id',
        column: 'listing',
        select: `${LISTING_SOURCE} where rc.${column} = ?`,
        params: ids.map((id) => [id]),
        value: (row) => [row[0], listingOfRow(row)],
      });
    };
    rewriteListings(
      'facility_id',
      relistedFacilities.map((f) => lower(f.id)),
    );
    rewriteListings(
      'tenant_id',
      renamedTenants.map((t) => lower(t.id)),
    );
    rewriteListings(
      'unit_id',
      renamedUnits.map((u) => lower(u.id)),
    );
  }

  const clients = data.client_applications ?? [];
  upsert(
    'client_applications',
    ['id', 'company_id', 'name', 'consumer_key', 'consumer_secret', 'created_at'],
    clients.map((c) => {
      const id = lower(c.id);
      const secret = secrets ? secrets.seal(c.consumer_secret, consumerSecretPlace(id)) : c.consumer_secret;
      return [id, lower(c.company_id), c.name, c.consumer_key, secret, now];
    }),
  );
  const tokens = clients
    .filter((c) => c.bearer_token)
    .map((c) => [hashToken(c.bearer_token!), lower(c.id), now]);
  if (tokens.length)
    upsert('bearer_tokens', ['token_hash', 'client_id', 'created_at'], tokens, ['token_hash']);

  return { steps, counts };
}
