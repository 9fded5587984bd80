import { hashToken } from '../../auth/auth.service';
import type { Store } from '../database';
import { records, type CheckedFile, type DatasetList } from './import.check';

/** The records a file may name, from the file itself or the database. */
export interface KnownRecords {
  facility: Map<string, { company_id: string; name: string; time_zone: string }>;
  company: Set<string>;
  tenant: Map<string, { facility_id: string; name: string }>;
  unit: Map<string, { facility_id: string; name: string }>;
  ledger: Map<string, { facility_id: string }>;
  event: Map<string, { facility_id: string }>;
}

type Kind = keyof KnownRecords;

/**
 * Stage 2 of an import: what the file names, in the file or the database. Every reference is
 * checked, and the keys another stored record already has (amount tiers, consumer keys, bearer
 * tokens). A record with a problem is reported once: a reference to it, or a further reference of
 * it after its facility was not found, adds no line of its own.
 */
export interface ResolvedReferences {
  known: KnownRecords;
  problems: string[];
  /**
   * Names, zones and companies the database holds for the file's facilities, and names for its
   * tenants and units, when any rate change is stored (its sort keys, names and listing must follow
   * a rename); null otherwise.
   */
  stored: {
    facilities: Map<string, { name: string; company_id: string; time_zone: string }>;
    tenants: Map<string, string>;
    units: Map<string, string>;
  } | null;
}

const lower = (id: string) => id.toLowerCase();

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The kind of record each list holds, for the lists other records refer to. */
const KIND_OF: Partial<Record<DatasetList, Kind>> = {
  companies: 'company',
  facilities: 'facility',
  tenants: 'tenant',
  units: 'unit',
  ledgers: 'ledger',
  events: 'event',
};

export async function resolveReferences(store: Store, file: CheckedFile): Promise<ResolvedReferences> {
  const problems: string[] = [];
  const known = knownInFile(file);
  await loadFromDatabase(store, known, wantedBy(file));
  await refuseKeysOfOtherRecords(store, file, problems);
  checkReferences(file, known, problems);
  return { known, problems, stored: await storedNames(store, file) };
}

function knownInFile(file: CheckedFile): KnownRecords {
  const known: KnownRecords = {
    facility: new Map(),
    company: new Set(records(file, 'companies').map(([c]) => lower(c.id))),
    tenant: new Map(),
    unit: new Map(),
    ledger: new Map(),
    event: new Map(),
  };
  for (const [f] of records(file, 'facilities')) {
    known.facility.set(lower(f.id), {
      company_id: lower(f.company_id),
      name: f.name,
      time_zone: f.time_zone ?? 'UTC',
    });
  }
  for (const [t] of records(file, 'tenants')) {
    known.tenant.set(lower(t.id), {
      facility_id: lower(t.facility_id),
      name: `${t.first_name} ${t.last_name}`,
    });
  }
  for (const [u] of records(file, 'units'))
    known.unit.set(lower(u.id), { facility_id: lower(u.facility_id), name: u.name });
  for (const [l] of records(file, 'ledgers'))
    known.ledger.set(lower(l.id), { facility_id: lower(l.facility_id) });
  for (const [e] of records(file, 'events'))
    known.event.set(lower(e.id), { facility_id: lower(e.facility_id) });
  return known;
}

/** Every id the file refers to, by kind. */
function wantedBy(file: CheckedFile): Record<Kind, Set<string>> {
  const wanted: Record<Kind, Set<string>> = {
    facility: new Set(),
    company: new Set(),
    tenant: new Set(),
    unit: new Set(),
    ledger: new Set(),
    event: new Set(),
  };
  const want = (kind: Kind, id: string | null | undefined) => {
    if (id) wanted[kind].add(lower(id));
  };
  for (const [f] of records(file, 'facilities')) want('company', f.company_id);
  for (const [f] of records(file, 'flippers')) {
    f.company_ids?.forEach((id) => want('company', id));
    f.facility_ids?.forEach((id) => want('facility', id));
  }
  for (const list of [
    'tenants',
    'units',
    'ledgers',
    'rate_applied_actions',
    'events',
    'invoiceable_items',
    'payment_methods',
    'rate_changes',
  ] as const) {
    for (const [r] of records(file, list)) want('facility', r.facility_id);
  }
  for (const [l] of records(file, 'ledgers')) {
    want('tenant', l.tenant_id);
    want('unit', l.unit_id);
  }
  for (const list of ['ledger_insurances', 'ledger_services', 'ledger_discounts'] as const) {
    for (const [r] of records(file, list)) want('ledger', r.ledger_id);
  }
  for (const [r] of records(file, 'rate_applied_actions')) {
    want('ledger', r.new_ledger_id);
    if (r.old_ledger_id) want('ledger', r.old_ledger_id);
    want('unit', r.unit_id);
  }
  for (const [e] of records(file, 'events')) want('ledger', e.ledger_id);
  for (const [d] of records(file, 'event_documents')) want('event', d.event_id);
  for (const [p] of records(file, 'payment_methods')) want('tenant', p.tenant_id);
  for (const [r] of records(file, 'rate_changes')) {
    want('tenant', r.tenant_id);
    want('unit', r.unit_id);
  }
  for (const [c] of records(file, 'client_applications')) want('company', c.company_id);
  return wanted;
}

/** Looks up, in the database, the referenced records the file does not itself hold. */
async function loadFromDatabase(
  store: Store,
  known: KnownRecords,
  wanted: Record<Kind, Set<string>>,
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
      .select(['id', 'company_id', 'name', 'time_zone'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) {
      known.facility.set(row.id, { company_id: row.company_id, name: row.name, time_zone: row.time_zone });
    }
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
  for (const ids of chunks(
    [...wanted.unit].filter((id) => !known.unit.has(id)),
    500,
  )) {
    const rows = await db
      .selectFrom('units')
      .select(['id', 'facility_id', 'name'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) known.unit.set(row.id, { facility_id: row.facility_id, name: row.name });
  }
  for (const kind of ['ledger', 'event'] as const) {
    const table = kind === 'ledger' ? 'ledgers' : 'events';
    for (const ids of chunks(
      [...wanted[kind]].filter((id) => !known[kind].has(id)),
      500,
    )) {
      const rows = await db.selectFrom(table).select(['id', 'facility_id']).where('id', 'in', ids).execute();
      for (const row of rows) known[kind].set(row.id, { facility_id: row.facility_id });
    }
  }
}

/**
 * Amount tiers, consumer keys and bearer tokens are keyed on their own: an upsert would silently
 * move one that already belongs to another item or client in the database.
 */
async function refuseKeysOfOtherRecords(store: Store, file: CheckedFile, problems: string[]): Promise<void> {
  const items = records(file, 'invoiceable_items');
  const itemIds = new Set(items.map(([item]) => lower(item.id)));
  const tierOwner = new Map<string, { where: string; item: string }>();
  for (const [item, i] of items) {
    item.invoiceable_amounts.forEach((tier, t) =>
      tierOwner.set(lower(tier.id), {
        where: `invoiceable_items[${i}].invoiceable_amounts[${t}].id`,
        item: lower(item.id),
      }),
    );
  }
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

  for (const batch of chunks(records(file, 'client_applications'), 500)) {
    const rows = await store.db
      .selectFrom('client_applications')
      .select(['id', 'consumer_key'])
      .where(
        'consumer_key',
        'in',
        batch.map(([client]) => client.consumer_key),
      )
      .execute();
    const owners = new Map(rows.map((row) => [row.consumer_key, row.id]));
    for (const [client, i] of batch) {
      const owner = owners.get(client.consumer_key);
      if (owner !== undefined && owner !== lower(client.id)) {
        problems.push(`client_applications[${i}].consumer_key: belongs to another client application`);
      }
    }
    const withTokens = batch.filter(([client]) => client.bearer_token);
    if (withTokens.length === 0) continue;
    const tokenRows = await store.db
      .selectFrom('bearer_tokens')
      .select(['token_hash', 'client_id'])
      .where(
        'token_hash',
        'in',
        withTokens.map(([client]) => hashToken(client.bearer_token!)),
      )
      .execute();
    const tokenOwners = new Map(tokenRows.map((row) => [row.token_hash, row.client_id]));
    for (const [client, i] of withTokens) {
      const owner = tokenOwners.get(hashToken(client.bearer_token!));
      if (owner !== undefined && owner !== lower(client.id)) {
        problems.push(`client_applications[${i}].bearer_token: belongs to another client application`);
      }
    }
  }
}

/** One reference of a record: its kind, the id given, where it stands, and whether it must share the record's facility. */
type Reference = [Kind, string | null | undefined, string, 'same facility'?];

/**
 * Checks the references record by record, in the order records depend on each other. A record is
 * reported at most once per problem it has itself: references to a reported record, and the other
 * references of a record whose facility was not found, add nothing.
 */
function checkReferences(file: CheckedFile, known: KnownRecords, problems: string[]): void {
  const reported = new Set<string>();
  for (const [list, indices] of file.rejected) {
    const kind = KIND_OF[list as DatasetList];
    const all = file.data[list as DatasetList] as Array<{ id?: unknown }> | undefined;
    if (!kind || !Array.isArray(all)) continue;
    for (const index of indices) {
      const id = all[index]?.id;
      if (typeof id === 'string') reported.add(`${kind}:${lower(id)}`);
    }
  }

  /** Checks one record's references; true when all hold. `self` names the record, when others refer to it. */
  const check = (self: [Kind, string] | null, facilityId: string | null, references: Reference[]): void => {
    const fail = () => {
      if (self) reported.add(`${self[0]}:${lower(self[1])}`);
    };
    for (const [kind, id, where, scope] of references) {
      if (!id) continue;
      const key = lower(id);
      if (reported.has(`${kind}:${key}`)) {
        fail();
        return;
      }
      const found = kind === 'company' ? known.company.has(key) : known[kind].get(key);
      if (!found) {
        problems.push(`${where}: no ${kind} ${id}`);
        fail();
        // A record without its facility has nothing further to check.
        if (kind === 'facility') return;
        continue;
      }
      if (
        scope &&
        facilityId &&
        typeof found === 'object' &&
        'facility_id' in found &&
        found.facility_id !== lower(facilityId)
      ) {
        problems.push(`${where}: ${kind} ${id} belongs to another facility`);
        fail();
      }
    }
  };

  for (const [f, i] of records(file, 'facilities')) {
    check(['facility', f.id], null, [['company', f.company_id, `facilities[${i}].company_id`]]);
  }
  for (const [f, i] of records(file, 'flippers')) {
    check(null, null, [
      ...[...new Set((f.company_ids ?? []).map(lower))].map((id): Reference => [
        'company',
        id,
        `flippers[${i}].company_ids`,
      ]),
      ...[...new Set((f.facility_ids ?? []).map(lower))].map((id): Reference => [
        'facility',
        id,
        `flippers[${i}].facility_ids`,
      ]),
    ]);
  }
  for (const [t, i] of records(file, 'tenants')) {
    check(['tenant', t.id], null, [['facility', t.facility_id, `tenants[${i}].facility_id`]]);
  }
  for (const [u, i] of records(file, 'units')) {
    check(['unit', u.id], null, [['facility', u.facility_id, `units[${i}].facility_id`]]);
  }
  for (const [l, i] of records(file, 'ledgers')) {
    check(['ledger', l.id], l.facility_id, [
      ['facility', l.facility_id, `ledgers[${i}].facility_id`],
      ['tenant', l.tenant_id, `ledgers[${i}].tenant_id`, 'same facility'],
      ['unit', l.unit_id, `ledgers[${i}].unit_id`, 'same facility'],
    ]);
  }
  for (const list of ['ledger_insurances', 'ledger_services', 'ledger_discounts'] as const) {
    for (const [r, i] of records(file, list))
      check(null, null, [['ledger', r.ledger_id, `${list}[${i}].ledger_id`]]);
  }
  for (const [r, i] of records(file, 'rate_applied_actions')) {
    const where = `rate_applied_actions[${i}]`;
    check(null, r.facility_id, [
      ['facility', r.facility_id, `${where}.facility_id`],
      ['ledger', r.new_ledger_id, `${where}.new_ledger_id`, 'same facility'],
      ['ledger', r.old_ledger_id, `${where}.old_ledger_id`, 'same facility'],
      ['unit', r.unit_id, `${where}.unit_id`, 'same facility'],
    ]);
  }
  for (const [e, i] of records(file, 'events')) {
    check(['event', e.id], e.facility_id, [
      ['facility', e.facility_id, `events[${i}].facility_id`],
      ['ledger', e.ledger_id, `events[${i}].ledger_id`, 'same facility'],
    ]);
  }
  for (const [d, i] of records(file, 'event_documents')) {
    check(null, null, [['event', d.event_id, `event_documents[${i}].event_id`]]);
  }
  for (const [item, i] of records(file, 'invoiceable_items')) {
    check(null, null, [['facility', item.facility_id, `invoiceable_items[${i}].facility_id`]]);
  }
  for (const [p, i] of records(file, 'payment_methods')) {
    check(null, p.facility_id, [
      ['facility', p.facility_id, `payment_methods[${i}].facility_id`],
      ['tenant', p.tenant_id, `payment_methods[${i}].tenant_id`, 'same facility'],
    ]);
  }
  for (const [r, i] of records(file, 'rate_changes')) {
    const where = `rate_changes[${i}]`;
    check(null, r.facility_id, [
      ['facility', r.facility_id, `${where}.facility_id`],
      ['tenant', r.tenant_id, `${where}.tenant_id`, 'same facility'],
      ['unit', r.unit_id, `${where}.unit_id`, 'same facility'],
    ]);
  }
  for (const [c, i] of records(file, 'client_applications')) {
    check(null, null, [['company', c.company_id, `client_applications[${i}].company_id`]]);
  }
}

async function storedNames(store: Store, file: CheckedFile): Promise<ResolvedReferences['stored']> {
  const anyRateChange = await store.db.selectFrom('rate_changes').select('id').limit(1).executeTakeFirst();
  if (!anyRateChange) return null;
  const facilities = new Map<string, { name: string; company_id: string; time_zone: string }>();
  for (const ids of chunks(
    records(file, 'facilities').map(([f]) => lower(f.id)),
    500,
  )) {
    const rows = await store.db
      .selectFrom('facilities')
      .select(['id', 'name', 'company_id', 'time_zone'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) {
      facilities.set(row.id, { name: row.name, company_id: row.company_id, time_zone: row.time_zone });
    }
  }
  const tenants = new Map<string, string>();
  for (const ids of chunks(
    records(file, 'tenants').map(([t]) => lower(t.id)),
    500,
  )) {
    const rows = await store.db
      .selectFrom('tenants')
      .select(['id', 'first_name', 'last_name'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) tenants.set(row.id, `${row.first_name} ${row.last_name}`);
  }
  const units = new Map<string, string>();
  for (const ids of chunks(
    records(file, 'units').map(([u]) => lower(u.id)),
    500,
  )) {
    const rows = await store.db.selectFrom('units').select(['id', 'name']).where('id', 'in', ids).execute();
    for (const row of rows) units.set(row.id, row.name);
  }
  return { facilities, tenants, units };
}
