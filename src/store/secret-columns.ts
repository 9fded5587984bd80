import { sql } from 'kysely';
import { SecretUnreadable, type SecretBox, type SecretPlace } from '../kernel/secret-box';
import type { Db } from './database';
import { isPostgres } from './dialect';

/** A column holding secrets sealed by the secret box, each bound to its row by its key column. */
export interface SecretColumn {
  readonly table: string;
  readonly column: string;
  /** The row's key, as text in the secret's place: `id` unless named. */
  readonly key?: string;
}

/**
 * Every stored secret. A new store of a secret adds its column here (and seals with the place
 * `{ table, column, rowId: <its key as text> }`), so the start-up pass and `secrets rotate-key`
 * cover it.
 */
export const SECRET_COLUMNS: readonly SecretColumn[] = [
  { table: 'client_applications', column: 'consumer_secret' },
  { table: 'client_applications', column: 'previous_consumer_secret' },
  { table: 'webhook_endpoints', column: 'secret' },
  { table: 'webhook_endpoints', column: 'previous_secret' },
  { table: 'sealing_certificates', column: 'private_key_pem', key: 'generation' },
];

/** Values written again, by `table.column`. */
export type ResealCounts = Record<string, number>;

/** Stored secrets that cannot be opened; nothing was written. Each names its row, never a value. */
export class ResealRefused extends Error {
  constructor(readonly unreadable: readonly SecretUnreadable[]) {
    super(
      `${unreadable.length} stored secret${unreadable.length === 1 ? '' : 's'} cannot be read, nothing was written:\n  ${unreadable.map((e) => e.message).join('\n  ')}`,
    );
  }
}

interface StoredValue {
  place: SecretPlace;
  /** The row's key column. */
  key: string;
  stored: string;
}

/** Rows read per statement. */
const PAGE = 500;
/** Passes made while concurrent writers keep adding values to reseal. */
const MAX_PASSES = 5;

/**
 * Writes again, sealed under the current key, the stored secrets that need it: `clear` ones only
 * (the first start with a key), or `every` one not sealed under the current key (a rotation). All
 * candidates are opened first, so one that cannot be opened writes nothing. Each write is
 * conditional on the value read (`WHERE id = ? AND column = <value read>`): instances running the
 * pass at once, or a writer changing a secret meanwhile, never lose a value.
 */
export async function resealSecrets(db: Db, box: SecretBox, which: 'clear' | 'every'): Promise<ResealCounts> {
  const counts: ResealCounts = Object.fromEntries(SECRET_COLUMNS.map((c) => [`${c.table}.${c.column}`, 0]));
  const currentKeyId = box.currentKeyId;
  if (currentKeyId === null) return counts;
  const due = async () =>
    (await storedSecrets(db, which === 'clear' ? 'clear' : { notUnder: currentKeyId })).filter(({ stored }) =>
      box.needsReseal(stored),
    );
  let pending = await due();
  if (pending.length === 0) return counts;
  const sqlite = !isPostgres(db);
  // SQLite keeps the bytes of replaced values in free space and in the WAL; zero them as they go.
  if (sqlite) await sql`pragma secure_delete = on`.execute(db);
  try {
    for (let pass = 0; pass < MAX_PASSES && pending.length > 0; pass++) {
      for (const { place, key, stored, plain } of openAll(box, pending)) {
        const result =
          await sql`update ${sql.table(place.table)} set ${sql.ref(place.column)} = ${box.seal(plain, place)}
          where ${keyText(key)} = ${place.rowId} and ${sql.ref(place.column)} = ${stored}`.execute(db);
        counts[`${place.table}.${place.column}`] += Number(result.numAffectedRows ?? 0);
      }
      pending = await due();
    }
  } finally {
    if (sqlite) {
      await sql`pragma secure_delete = off`.execute(db);
      await sql`pragma wal_checkpoint(truncate)`.execute(db);
    }
  }
  return counts;
}

/** Every candidate opened, or a refusal naming each that cannot be. */
function openAll(box: SecretBox, values: StoredValue[]): Array<StoredValue & { plain: string }> {
  const unreadable: SecretUnreadable[] = [];
  const opened: Array<StoredValue & { plain: string }> = [];
  for (const value of values) {
    try {
      opened.push({ ...value, plain: box.open(value.stored, value.place) });
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      unreadable.push(error);
    }
  }
  if (unreadable.length > 0) throw new ResealRefused(unreadable);
  return opened;
}

/**
 * The stored secrets (null columns left out), page by page: all of them, those in `clear`, or those
 * not sealed under one key.
 */
export async function storedSecrets(
  db: Db,
  which: 'all' | 'clear' | { notUnder: string } = 'all',
): Promise<StoredValue[]> {
  const values: StoredValue[] = [];
  for (const { table, column, key = 'id' } of SECRET_COLUMNS) {
    const value = sql.ref(column);
    const id = keyText(key);
    const only =
      which === 'all'
        ? sql``
        : which === 'clear'
          ? startsOtherwise(value, 'enc:')
          : startsOtherwise(value, `enc:v1:${which.notUnder}:`);
    let after = '';
    for (;;) {
      const { rows } = await sql<{ id: string; value: string }>`select ${id} as id, ${value} as value
        from ${sql.table(table)} where ${value} is not null ${only} and ${id} > ${after}
        order by ${id} limit ${sql.lit(PAGE)}`.execute(db);
      for (const row of rows)
        values.push({ place: { table, column, rowId: row.id }, key, stored: row.value });
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1].id;
    }
  }
  return values;
}

/** A row's key column as text, as the secret's place names the row. */
function keyText(key: string) {
  return sql`cast(${sql.ref(key)} as text)`;
}

/** `value` does not start with `prefix`, compared exactly (LIKE ignores case on SQLite). */
function startsOtherwise(value: ReturnType<typeof sql.ref>, prefix: string) {
  return sql`and substr(${value}, 1, ${sql.lit(prefix.length)}) <> ${prefix}`;
}

/** How many stored secrets are in clear and under each key id, by `table.column`. */
export async function secretsByKey(db: Db): Promise<Record<string, Record<string, number>>> {
  const tally: Record<string, Record<string, number>> = {};
  for (const { place, stored } of await storedSecrets(db)) {
    const name = `${place.table}.${place.column}`;
    const key =
      /^enc:v1:([0-9a-f]{8}):/.exec(stored)?.[1] ?? (stored.startsWith('enc:') ? 'unknown form' : 'clear');
    tally[name] ??= {};
    tally[name][key] = (tally[name][key] ?? 0) + 1;
  }
  return tally;
}
