import { amountToCents } from '../../domain/shared/money';
import { isValidTimeZone, parseOffsetDateTime } from '../../domain/shared/time';
import { hashToken } from '../../auth/auth.service';
import type { Store } from '../database';
import { runWritePlan, type WriteStep } from './bulk-writer';
import type { Dataset } from './dataset.types';
import { schemaProblems } from './dataset.validate';

/** The file was refused; nothing was written. Each problem names the record and field at fault. */
export class DatasetError extends Error {
  constructor(readonly problems: string[]) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : '';
    super(
      `dataset refused (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${shown.join('\n  ')}${more}`,
    );
  }
}

export type ImportCounts = Record<string, number>;

/** The shapes files mostly hold: whole seconds or milliseconds, `Z` or `+hh:mm`, a day every month has. */
const COMMON_INSTANT =
  /^([1-9]\d{3})-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{3})?(?:(Z)|([+-])([01]\d|2[0-3]):([0-5]\d))$/;

/** parseOffsetDateTime's answer, reached without its calendar checks for the common shapes. */
export function storedInstant(value: string): string | null {
  const m = COMMON_INSTANT.exec(value);
  if (!m) return parseOffsetDateTime(value);
  if (m[8]) return `${value.slice(0, 19)}${m[7] ?? '.000'}Z`;
  const offsetMinutes = (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const millis = m[7] ? Number(m[7].slice(1)) : 0;
  const utc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], millis) - offsetMinutes * 60_000;
  return new Date(utc).toISOString();
}

const flag = (value: boolean | undefined, fallback: boolean): 0 | 1 => ((value ?? fallback) ? 1 : 0);

interface Known {
  facility: Map<string, { company_id: string; name: string }>;
  company: Set<string>;
  tenant: Map<string, { facility_id: string; name: string }>;
  unit: Map<string, { facility_id: string }>;
  ledger: Map<string, { facility_id: string }>;
  event: Map<string, { facility_id: string }>;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Looks up, in the database, the referenced records the file does not itself hold. */
async function loadFromDatabase(
  store: Store,
  known: Known,
  wanted: Record<keyof Known, Set<string>>,
): Promise<void> {
  const db = store.db;
  for (const ids of chunks(
    [...wanted.company].filter((id) => !known.company.has(id)),
    500,
  )) {
    for (const row of await db.selectFrom('companies').select('id').where('id', 'in', ids).execute()) {
      known.company.add(row.id);
    }
  }
  for (const ids of chunks(
    [...wanted.facility].filter((id) => !known.facility.has(id)),
    500,
  )) {
    const rows = await db
      .selectFrom('facilities')
      .select(['id', 'company_id', 'name'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) known.facility.set(row.id, { company_id: row.company_id, name: row.name });
  }
  for (const ids of chunks(
    [...wanted.tenant].filter((id) => !known.tenant.has(id)),
    500,
  )) {
    const rows = await db
      .selectFrom('tenants')
      .select(['id', 'facility_id', 'first_name', 'last_name'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) {
      known.tenant.set(row.id, { facility_id: row.facility_id, name: `${row.first_name} ${row.last_name}` });
    }
  }
  for (const table of ['unit', 'ledger', 'event'] as const) {
    const tableName = table === 'unit' ? 'units' : table === 'ledger' ? 'ledgers' : 'events';
    for (const ids of chunks(
      [...wanted[table]].filter((id) => !known[table].has(id)),
      500,
    )) {
      const rows = await db
        .selectFrom(tableName)
        .select(['id', 'facility_id'])
        .where('id', 'in', ids)
        .execute();
      for (const row of rows) known[table].set(row.id, { facility_id: row.facility_id });
    }
  }
}

/**
 * Amount tiers, consumer keys and bearer tokens are keyed on their own: an upsert would silently
 * move one that already belongs to another item or client in the database.
 */
async function refuseKeysOfOtherRecords(store: Store, data: Dataset, problems: string[]): Promise<void> {
  const items = data.invoiceable_items ?? [];
  const itemIds = new Set(items.map((item) => item.id.toLowerCase()));
  const tierOwner = new Map<string, { where: string; item: string }>();
  items.forEach((item, i) =>
    item.invoiceable_amounts.forEach((tier, t) =>
      tierOwner.set(tier.id.toLowerCase(), {
        where: `invoiceable_items[${i}].invoiceable_amounts[${t}].id`,
        item: item.id.toLowerCase(),
      }),
    ),
  );
  for (const ids of chunks([...tierOwner.keys()], 500)) {
    const rows = await store.db
      .selectFrom('invoiceable_amounts')
      .select(['id', 'invoiceable_item_id'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) {
      const owner = tierOwner.get(row.id)!;
      // Tiers of an item in the file are replaced as a whole, so only other items' tiers conflict.
      if (row.invoiceable_item_id !== owner.item && !itemIds.has(row.invoiceable_item_id)) {
        problems.push(`${owner.where}: ${row.id} is an amount of another invoiceable item`);
      }
    }
  }

  const clients = data.client_applications ?? [];
  for (const batch of chunks(
    clients.map((client, i) => ({ client, i })),
    500,
  )) {
    const rows = await store.db
      .selectFrom('client_applications')
      .select(['id', 'consumer_key'])
      .where(
        'consumer_key',
        'in',
        batch.map(({ client }) => client.consumer_key),
      )
      .execute();
    const owners = new Map(rows.map((row) => [row.consumer_key, row.id]));
    for (const { client, i } of batch) {
      const owner = owners.get(client.consumer_key);
      if (owner !== undefined && owner !== client.id.toLowerCase()) {
        problems.push(`client_applications[${i}].consumer_key: belongs to another client application`);
      }
    }
    const withTokens = batch.filter(({ client }) => client.bearer_token);
    if (withTokens.length === 0) continue;
    const tokenRows = await store.db
      .selectFrom('bearer_tokens')
      .select(['token_hash', 'client_id'])
      .where(
        'token_hash',
        'in',
        withTokens.map(({ client }) => hashToken(client.bearer_token!)),
      )
      .execute();
    const tokenOwners = new Map(tokenRows.map((row) => [row.token_hash, row.client_id]));
    for (const { client, i } of withTokens) {
      const owner = tokenOwners.get(hashToken(client.bearer_token!));
      if (owner !== undefined && owner !== client.id.toLowerCase()) {
        problems.push(`client_applications[${i}].bearer_token: belongs to another client application`);
      }
    }
  }
}

/**
 * Validates the whole file (schema, rules, every reference, in the file or the database), then writes
 * it in one transaction. Importing the same ids again updates those records.
 */
export interface ImportOptions {
  /**
   * Skips the JSON-schema pass, for generated data whose shape the test suite already checks against
   * the schema (the demo seed). References and value rules are still checked.
   */
  shapeTrusted?: boolean;
}

export async function importDataset(
  store: Store,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportCounts> {
  if (!options.shapeTrusted) {
    const schemaIssues = schemaProblems(input);
    if (schemaIssues.length > 0) throw new DatasetError(schemaIssues);
  }
  const data = input as Dataset;
  const problems: string[] = [];

  // Duplicate keys within one list would make "last one wins" silent; refuse them instead.
  const lists = Object.entries(data).filter(([, value]) => Array.isArray(value)) as Array<
    [string, Array<{ id?: string; name?: string }>]
  >;
  for (const [name, records] of lists) {
    const seen = new Set<string>();
    records.forEach((record, index) => {
      const key = name === 'flippers' ? record.name! : record.id!.toLowerCase();
      if (seen.has(key))
        problems.push(`${name}[${index}]: duplicate ${name === 'flippers' ? 'name' : 'id'} ${key}`);
      seen.add(key);
    });
  }

  // Keys that must be unique beyond the record ids: amount tiers, consumer keys and bearer tokens.
  const tierIds = new Set<string>();
  (data.invoiceable_items ?? []).forEach((item, i) =>
    item.invoiceable_amounts.forEach((tier, t) => {
      const key = tier.id.toLowerCase();
      if (tierIds.has(key))
        problems.push(`invoiceable_items[${i}].invoiceable_amounts[${t}]: duplicate id ${key}`);
      tierIds.add(key);
    }),
  );
  const consumerKeys = new Map<string, number>();
  const tokenHashes = new Map<string, number>();
  (data.client_applications ?? []).forEach((client, i) => {
    const sameKey = consumerKeys.get(client.consumer_key);
    if (sameKey !== undefined) {
      problems.push(`client_applications[${i}].consumer_key: the same as client_applications[${sameKey}]`);
    } else consumerKeys.set(client.consumer_key, i);
    if (client.bearer_token) {
      const hash = hashToken(client.bearer_token);
      const sameToken = tokenHashes.get(hash);
      if (sameToken !== undefined) {
        problems.push(
          `client_applications[${i}].bearer_token: the same as client_applications[${sameToken}]`,
        );
      } else tokenHashes.set(hash, i);
    }
  });
  await refuseKeysOfOtherRecords(store, data, problems);

  const cents = (value: number, where: string): number => {
    const result = amountToCents(value);
    if (result === null) {
      problems.push(`${where}: ${value} has more than two decimal places`);
      return 0;
    }
    return result;
  };
  const instant = (value: string, where: string): string => {
    const stored = storedInstant(value);
    if (stored === null) {
      problems.push(`${where}: ${value} is not an ISO 8601 date-time with a UTC offset`);
      return '';
    }
    return stored;
  };
  const lower = (id: string) => id.toLowerCase();

  const known: Known = {
    facility: new Map(),
    company: new Set((data.companies ?? []).map((c) => lower(c.id))),
    tenant: new Map(),
    unit: new Map(),
    ledger: new Map(),
    event: new Map(),
  };
  for (const f of data.facilities ?? [])
    known.facility.set(lower(f.id), { company_id: lower(f.company_id), name: f.name });
  for (const t of data.tenants ?? []) {
    known.tenant.set(lower(t.id), {
      facility_id: lower(t.facility_id),
      name: `${t.first_name} ${t.last_name}`,
    });
  }
  for (const u of data.units ?? []) known.unit.set(lower(u.id), { facility_id: lower(u.facility_id) });
  for (const l of data.ledgers ?? []) known.ledger.set(lower(l.id), { facility_id: lower(l.facility_id) });
  for (const e of data.events ?? []) known.event.set(lower(e.id), { facility_id: lower(e.facility_id) });

  // Every reference, looked up in the database when the file does not hold it.
  const wanted: Record<keyof Known, Set<string>> = {
    facility: new Set(),
    company: new Set(),
    tenant: new Set(),
    unit: new Set(),
    ledger: new Set(),
    event: new Set(),
  };
  const want = (kind: keyof Known, id: string | null | undefined) => {
    if (id) wanted[kind].add(lower(id));
  };
  data.facilities?.forEach((f) => want('company', f.company_id));
  data.flippers?.forEach((f) => {
    f.company_ids?.forEach((id) => want('company', id));
    f.facility_ids?.forEach((id) => want('facility', id));
  });
  for (const list of [
    data.tenants,
    data.units,
    data.ledgers,
    data.rate_applied_actions,
    data.events,
    data.invoiceable_items,
    data.payment_methods,
    data.rate_changes,
  ]) {
    list?.forEach((r) => want('facility', r.facility_id));
  }
  data.ledgers?.forEach((l) => {
    want('tenant', l.tenant_id);
    want('unit', l.unit_id);
  });
  for (const list of [data.ledger_insurances, data.ledger_services, data.ledger_discounts]) {
    list?.forEach((r) => want('ledger', r.ledger_id));
  }
  data.rate_applied_actions?.forEach((r) => {
    want('ledger', r.new_ledger_id);
    if (r.old_ledger_id) want('ledger', r.old_ledger_id);
    want('unit', r.unit_id);
  });
  data.events?.forEach((e) => want('ledger', e.ledger_id));
  data.event_documents?.forEach((d) => want('event', d.event_id));
  data.payment_methods?.forEach((p) => want('tenant', p.tenant_id));
  data.rate_changes?.forEach((r) => {
    want('tenant', r.tenant_id);
    want('unit', r.unit_id);
  });
  data.client_applications?.forEach((c) => want('company', c.company_id));
  await loadFromDatabase(store, known, wanted);

  const ref = (
    kind: keyof Known,
    id: string | null | undefined,
    where: string,
    facilityId?: string,
  ): void => {
    if (!id) return;
    const key = lower(id);
    const found = kind === 'company' ? known.company.has(key) : known[kind].get(key);
    if (!found) {
      problems.push(`${where}: no ${kind} ${id}`);
      return;
    }
    if (
      facilityId &&
      typeof found === 'object' &&
      'facility_id' in found &&
      found.facility_id !== lower(facilityId)
    ) {
      problems.push(`${where}: ${kind} ${id} belongs to another facility`);
    }
  };

  const plan: WriteStep[] = [];
  const counts: ImportCounts = {};
  const upsert = (table: string, columns: string[], rows: unknown[][], key: string[] = ['id']) => {
    counts[table] = (counts[table] ?? 0) + rows.length;
    plan.push({ kind: 'upsert', table, columns, key, rows });
  };

  upsert(
    'companies',
    ['id', 'name'],
    (data.companies ?? []).map((c) => [lower(c.id), c.name]),
  );

  upsert(
    'facilities',
    ['id', 'company_id', 'name', 'time_zone', 'tenant_payments_disabled'],
    (data.facilities ?? []).map((f, i) => {
      ref('company', f.company_id, `facilities[${i}].company_id`);
      const zone = f.time_zone ?? 'UTC';
      if (!isValidTimeZone(zone))
        problems.push(`facilities[${i}].time_zone: ${zone} is not an IANA time zone`);
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
    plan.push({
      kind: 'deleteIn',
      table: 'flipper_actors',
      column: 'flipper_name',
      values: data.flippers.map((f) => f.name),
    });
    const actors: unknown[][] = [];
    data.flippers.forEach((f, i) => {
      for (const id of new Set((f.company_ids ?? []).map(lower))) {
        ref('company', id, `flippers[${i}].company_ids`);
        actors.push([f.name, 'company', id]);
      }
      for (const id of new Set((f.facility_ids ?? []).map(lower))) {
        ref('facility', id, `flippers[${i}].facility_ids`);
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
    (data.tenants ?? []).map((t, i) => {
      ref('facility', t.facility_id, `tenants[${i}].facility_id`);
      return [lower(t.id), lower(t.facility_id), t.first_name, t.last_name, t.email ?? null, t.phone ?? null];
    }),
  );

  upsert(
    'units',
    ['id', 'facility_id', 'name', 'rate_cents'],
    (data.units ?? []).map((u, i) => {
      ref('facility', u.facility_id, `units[${i}].facility_id`);
      return [lower(u.id), lower(u.facility_id), u.name, cents(u.rate, `units[${i}].rate`)];
    }),
  );

  upsert(
    'ledgers',
    ['id', 'facility_id', 'tenant_id', 'unit_id'],
    (data.ledgers ?? []).map((l, i) => {
      ref('facility', l.facility_id, `ledgers[${i}].facility_id`);
      ref('tenant', l.tenant_id, `ledgers[${i}].tenant_id`, l.facility_id);
      ref('unit', l.unit_id, `ledgers[${i}].unit_id`, l.facility_id);
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
    (data.ledger_insurances ?? []).map((r, i) => {
      ref('ledger', r.ledger_id, `ledger_insurances[${i}].ledger_id`);
      const d = r.data;
      return [
        lower(r.id),
        lower(r.ledger_id),
        r.effective_date,
        r.cancel_date ?? null,
        cents(r.amount, `ledger_insurances[${i}].amount`),
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
    (data.ledger_services ?? []).map((r, i) => {
      ref('ledger', r.ledger_id, `ledger_services[${i}].ledger_id`);
      return [
        lower(r.id),
        lower(r.ledger_id),
        r.effective_date,
        r.cancel_date ?? null,
        cents(r.amount, `ledger_services[${i}].amount`),
        r.data.description,
        r.data.product_code,
      ];
    }),
  );

  upsert(
    'ledger_discounts',
    ['id', 'ledger_id', 'name', 'kind', 'description', 'start_date', 'end_date', 'min_occupancy_months'],
    (data.ledger_discounts ?? []).map((r, i) => {
      ref('ledger', r.ledger_id, `ledger_discounts[${i}].ledger_id`);
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
    (data.rate_applied_actions ?? []).map((r, i) => {
      const where = `rate_applied_actions[${i}]`;
      ref('facility', r.facility_id, `${where}.facility_id`);
      ref('ledger', r.new_ledger_id, `${where}.new_ledger_id`, r.facility_id);
      if (r.old_ledger_id) ref('ledger', r.old_ledger_id, `${where}.old_ledger_id`, r.facility_id);
      ref('unit', r.unit_id, `${where}.unit_id`, r.facility_id);
      return [
        lower(r.id),
        lower(r.facility_id),
        r.rate_info.applied_rate.name,
        cents(r.rate_info.applied_rate.amount, `${where}.rate_info.applied_rate.amount`),
        cents(r.rate_info.standard_rate, `${where}.rate_info.standard_rate`),
        r.source,
        r.completed_on,
        r.completed_by ?? '',
        r.employee_id ?? '',
        r.user_id ?? '',
        instant(r.time_completed, `${where}.time_completed`),
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
    (data.events ?? []).map((e, i) => {
      ref('facility', e.facility_id, `events[${i}].facility_id`);
      if (e.ledger_id) ref('ledger', e.ledger_id, `events[${i}].ledger_id`, e.facility_id);
      return [
        lower(e.id),
        lower(e.facility_id),
        e.type,
        e.ledger_id ? lower(e.ledger_id) : null,
        instant(e.created_at, `events[${i}].created_at`),
      ];
    }),
  );

  upsert(
    'event_documents',
    ['id', 'event_id', 'description', 'type', 'is_relevant', 'esignable', 'created_at', 'body'],
    (data.event_documents ?? []).map((d, i) => {
      ref('event', d.event_id, `event_documents[${i}].event_id`);
      return [
        lower(d.id),
        lower(d.event_id),
        d.description,
        d.type ?? 'PrintTemplate',
        flag(d.is_relevant, true),
        flag(d.esignable, false),
        instant(d.created_at, `event_documents[${i}].created_at`),
        d.body ?? '',
      ];
    }),
  );

  const items = data.invoiceable_items ?? [];
  upsert(
    'invoiceable_items',
    [
      'id',
      'facility_id',
      'kind',
      'product_code',
      'description',
      'short_description',
      'required_at_move_in',
      'required_at_transfer',
      'show_in_sales_center',
      'tax_total_cents',
      'total_cents',
      'fee_category',
      'coverage_amount_cents',
      'coverage_percentage',
      'provider_name',
      'provider_key',
      'quantity',
      'is_rental_center_lock',
      'rental_center_eligible',
    ],
    items.map((item, i) => {
      const where = `invoiceable_items[${i}]`;
      ref('facility', item.facility_id, `${where}.facility_id`);
      const tax = cents(item.tax_total, `${where}.tax_total`);
      const total = cents(item.total, `${where}.total`);
      if (item.kind === 'retail') {
        if (item.invoiceable_amounts.length !== 1)
          problems.push(`${where}.invoiceable_amounts: a retail item has exactly one amount tier`);
        else if (
          cents(item.invoiceable_amounts[0].amount, `${where}.invoiceable_amounts[0].amount`) + tax !==
          total
        ) {
          problems.push(`${where}.total: a retail item's total is its amount plus tax_total`);
        }
      }
      if (item.fee_category && item.kind !== 'fee')
        problems.push(`${where}.fee_category: only fees have a fee category`);
      return [
        lower(item.id),
        lower(item.facility_id),
        item.kind,
        item.product_code,
        item.description,
        item.short_description ?? null,
        flag(item.required_at_move_in, false),
        flag(item.required_at_transfer, false),
        flag(item.show_in_sales_center, true),
        tax,
        total,
        item.kind === 'fee' ? (item.fee_category ?? 'other') : null,
        item.coverage_amount === undefined ? null : cents(item.coverage_amount, `${where}.coverage_amount`),
        item.coverage_percentage ?? null,
        item.provider_name ?? null,
        item.provider_key ?? null,
        item.kind === 'retail' ? (item.quantity ?? 0) : (item.quantity ?? null),
        flag(item.is_rental_center_lock, false),
        flag(item.rental_center_eligible, false),
      ];
    }),
  );
  if (items.length) {
    plan.push({
      kind: 'deleteIn',
      table: 'invoiceable_amounts',
      column: 'invoiceable_item_id',
      values: items.map((item) => lower(item.id)),
    });
    const amounts: unknown[][] = [];
    items.forEach((item, i) =>
      item.invoiceable_amounts.forEach((tier, position) => {
        amounts.push([
          lower(tier.id),
          lower(item.id),
          position,
          cents(tier.amount, `invoiceable_items[${i}].invoiceable_amounts[${position}].amount`),
          tier.kind,
          tier.limit ?? null,
        ]);
      }),
    );
    upsert(
      'invoiceable_amounts',
      ['id', 'invoiceable_item_id', 'position', 'amount_cents', 'kind', 'limit_value'],
      amounts,
    );
  }

  const now = new Date().toISOString();
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
    (data.payment_methods ?? []).map((p, i) => {
      ref('facility', p.facility_id, `payment_methods[${i}].facility_id`);
      if (p.tenant_id) ref('tenant', p.tenant_id, `payment_methods[${i}].tenant_id`, p.facility_id);
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
    ],
    (data.rate_changes ?? []).map((r, i) => {
      const where = `rate_changes[${i}]`;
      ref('facility', r.facility_id, `${where}.facility_id`);
      ref('tenant', r.tenant_id, `${where}.tenant_id`, r.facility_id);
      ref('unit', r.unit_id, `${where}.unit_id`, r.facility_id);
      const facility = known.facility.get(lower(r.facility_id));
      const tenant = known.tenant.get(lower(r.tenant_id));
      return [
        lower(r.id),
        facility?.company_id ?? '',
        lower(r.facility_id),
        lower(r.tenant_id),
        lower(r.unit_id),
        instant(r.changed_at, `${where}.changed_at`),
        cents(r.old_rate, `${where}.old_rate`),
        cents(r.new_rate, `${where}.new_rate`),
        r.effective_on_date,
        r.created_by ?? null,
        sortKey(facility?.name ?? ''),
        sortKey(tenant?.name ?? ''),
      ];
    }),
  );

  // Renamed facilities and tenants, or a facility moved to another company, keep their rate changes in step.
  const existingRateChanges = await store.db
    .selectFrom('rate_changes')
    .select('id')
    .limit(1)
    .executeTakeFirst();
  if (existingRateChanges) {
    // Only records that were already stored under another name (or company) can have stale rows;
    // new ones have none, so they cost no update.
    const facilities = data.facilities ?? [];
    const storedFacilities = new Map<string, { name: string; company_id: string }>();
    for (const ids of chunks(
      facilities.map((f) => lower(f.id)),
      500,
    )) {
      const rows = await store.db
        .selectFrom('facilities')
        .select(['id', 'name', 'company_id'])
        .where('id', 'in', ids)
        .execute();
      for (const row of rows) storedFacilities.set(row.id, row);
    }
    const movedFacilities = facilities.filter((f) => {
      const stored = storedFacilities.get(lower(f.id));
      return stored !== undefined && (stored.name !== f.name || stored.company_id !== lower(f.company_id));
    });
    if (movedFacilities.length) {
      plan.push({
        kind: 'statement',
        sql: 'update rate_changes set facility_sort = ?, company_id = ? where facility_id = ?',
        params: movedFacilities.map((f) => [sortKey(f.name), lower(f.company_id), lower(f.id)]),
      });
    }

    const tenants = data.tenants ?? [];
    const storedTenants = new Map<string, string>();
    for (const ids of chunks(
      tenants.map((t) => lower(t.id)),
      500,
    )) {
      const rows = await store.db
        .selectFrom('tenants')
        .select(['id', 'first_name', 'last_name'])
        .where('id', 'in', ids)
        .execute();
      for (const row of rows) storedTenants.set(row.id, `${row.first_name} ${row.last_name}`);
    }
    const renamedTenants = tenants.filter((t) => {
      const stored = storedTenants.get(lower(t.id));
      return stored !== undefined && stored !== `${t.first_name} ${t.last_name}`;
    });
    if (renamedTenants.length) {
      plan.push({
        kind: 'statement',
        sql: 'update rate_changes set tenant_sort = ? where tenant_id = ?',
        params: renamedTenants.map((t) => [sortKey(`${t.first_name} ${t.last_name}`), lower(t.id)]),
      });
    }
  }

  const clients = data.client_applications ?? [];
  upsert(
    'client_applications',
    ['id', 'company_id', 'name', 'consumer_key', 'consumer_secret', 'created_at'],
    clients.map((c, i) => {
      ref('company', c.company_id, `client_applications[${i}].company_id`);
      return [lower(c.id), lower(c.company_id), c.name, c.consumer_key, c.consumer_secret, now];
    }),
  );
  const tokens = clients
    .filter((c) => c.bearer_token)
    .map((c) => [hashToken(c.bearer_token!), lower(c.id), now]);
  if (tokens.length)
    upsert('bearer_tokens', ['token_hash', 'client_id', 'created_at'], tokens, ['token_hash']);

  if (problems.length > 0) throw new DatasetError(problems);
  await runWritePlan(store, plan);
  return counts;
}

/** The case-insensitive sort key of a name, compared byte-wise on both dialects. */
export function sortKey(name: string): string {
  return name.toLowerCase();
}
