import { hashToken } from '../../auth/auth.service';
import { amountToCents } from '../../kernel/money';
import { isValidTimeZone, parseOffsetDateTime } from '../../kernel/time';
import type { Dataset, DatasetInvoiceableItem } from './dataset.types';
import { schemaErrors } from './dataset.validate';

/**
 * Stage 1 of an import: the file on its own, without the database. Its shape against the format
 * (dataset.schema.ts), then the rules within it: no id or key twice, amounts in cents, instants
 * with an offset, known time zones, retail tiers. Every problem is reported in this one pass; a
 * record whose shape is wrong is reported once and not read further (by any stage).
 */
export interface CheckedFile {
  data: Dataset;
  problems: string[];
  /** Records that failed the schema, by list: their fields cannot be trusted. */
  rejected: ReadonlyMap<string, ReadonlySet<number>>;
  /** The file as a whole is malformed (not an object, a list that is not a list): nothing else was checked. */
  fatal: boolean;
}

export type DatasetList = Exclude<keyof Dataset, 'version'>;

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

/** The records of a list that passed the schema, with their index in the file. */
export function records<L extends DatasetList>(
  file: Pick<CheckedFile, 'data' | 'rejected'>,
  list: L,
): Array<[NonNullable<Dataset[L]>[number], number]> {
  const rejected = file.rejected.get(list);
  const all = (file.data[list] ?? []) as Array<NonNullable<Dataset[L]>[number]>;
  return all.flatMap((record, index) =>
    rejected?.has(index) ? [] : [[record, index] as [typeof record, number]],
  );
}

/** Runs the schema and the in-file rules; see CheckedFile. */
export function checkFile(input: unknown, options: { shapeTrusted?: boolean } = {}): CheckedFile {
  const problems: string[] = [];
  const rejected = new Map<string, Set<number>>();
  if (!options.shapeTrusted) {
    let fatal = false;
    for (const error of schemaErrors(input)) {
      problems.push(error.text);
      const [list, index] = error.at;
      // The file is not an object, or a list is not a list: its records cannot be read at all.
      if (index === undefined && error.keyword === 'type') fatal = true;
      if (list !== undefined && index !== undefined) {
        const set = rejected.get(list) ?? new Set<number>();
        set.add(index);
        rejected.set(list, set);
      }
    }
    if (fatal) return { data: {} as Dataset, problems, rejected, fatal: true };
  }
  const file = { data: input as Dataset, rejected };
  duplicates(file, problems);
  values(file, problems);
  return { data: file.data, problems, rejected, fatal: false };
}

/** Duplicate keys within one list would make "last one wins" silent; refuse them instead. */
function duplicates(file: Pick<CheckedFile, 'data' | 'rejected'>, problems: string[]): void {
  for (const [name, value] of Object.entries(file.data)) {
    if (!Array.isArray(value)) continue;
    const list = name as DatasetList;
    const seen = new Set<string>();
    for (const [record, index] of records(file, list) as Array<[{ id?: string; name?: string }, number]>) {
      const key = list === 'flippers' ? record.name! : record.id!.toLowerCase();
      if (seen.has(key))
        problems.push(`${list}[${index}]: duplicate ${list === 'flippers' ? 'name' : 'id'} ${key}`);
      seen.add(key);
    }
  }

  // Keys that must be unique beyond the record ids: amount tiers, consumer keys and bearer tokens.
  const tierIds = new Set<string>();
  for (const [item, i] of records(file, 'invoiceable_items')) {
    item.invoiceable_amounts.forEach((tier, t) => {
      const key = tier.id.toLowerCase();
      if (tierIds.has(key))
        problems.push(`invoiceable_items[${i}].invoiceable_amounts[${t}]: duplicate id ${key}`);
      tierIds.add(key);
    });
  }
  const consumerKeys = new Map<string, number>();
  const tokenHashes = new Map<string, number>();
  for (const [client, i] of records(file, 'client_applications')) {
    const sameKey = consumerKeys.get(client.consumer_key);
    if (sameKey !== undefined) {
      problems.push(`client_applications[${i}].consumer_key: the same as client_applications[${sameKey}]`);
    } else consumerKeys.set(client.consumer_key, i);
    // A value copied from a database that encrypts its secrets would be taken for the secret itself.
    if (typeof client.consumer_secret === 'string' && client.consumer_secret.startsWith('enc:')) {
      problems.push(
        `client_applications[${i}].consumer_secret: an encrypted value (enc:...) is not a secret; give the secret itself`,
      );
    }
    if (client.bearer_token) {
      const hash = hashToken(client.bearer_token);
      const sameToken = tokenHashes.get(hash);
      if (sameToken !== undefined) {
        problems.push(
          `client_applications[${i}].bearer_token: the same as client_applications[${sameToken}]`,
        );
      } else tokenHashes.set(hash, i);
    }
  }
}

/** Amounts, instants, zones and the rules of retail items and fees. */
function values(file: Pick<CheckedFile, 'data' | 'rejected'>, problems: string[]): void {
  const cents = (value: number, where: string) => {
    const result = amountToCents(value);
    if (result === null) problems.push(`${where}: ${value} has more than two decimal places`);
    return result ?? 0;
  };
  const instant = (value: string, where: string) => {
    if (storedInstant(value) === null) {
      problems.push(`${where}: ${value} is not an ISO 8601 date-time with a UTC offset`);
    }
  };
  for (const [f, i] of records(file, 'facilities')) {
    const zone = f.time_zone ?? 'UTC';
    if (!isValidTimeZone(zone)) problems.push(`facilities[${i}].time_zone: ${zone} is not an IANA time zone`);
  }
  for (const [u, i] of records(file, 'units')) cents(u.rate, `units[${i}].rate`);
  for (const [r, i] of records(file, 'ledger_insurances')) cents(r.amount, `ledger_insurances[${i}].amount`);
  for (const [r, i] of records(file, 'ledger_services')) cents(r.amount, `ledger_services[${i}].amount`);
  for (const [r, i] of records(file, 'rate_applied_actions')) {
    const where = `rate_applied_actions[${i}]`;
    cents(r.rate_info.applied_rate.amount, `${where}.rate_info.applied_rate.amount`);
    cents(r.rate_info.standard_rate, `${where}.rate_info.standard_rate`);
    instant(r.time_completed, `${where}.time_completed`);
  }
  for (const [e, i] of records(file, 'events')) instant(e.created_at, `events[${i}].created_at`);
  for (const [d, i] of records(file, 'event_documents'))
    instant(d.created_at, `event_documents[${i}].created_at`);
  for (const [item, i] of records(file, 'invoiceable_items')) {
    invoiceableItemProblems(item, `invoiceable_items[${i}]`, cents, problems);
  }
  for (const [r, i] of records(file, 'rate_changes')) {
    const where = `rate_changes[${i}]`;
    instant(r.changed_at, `${where}.changed_at`);
    cents(r.old_rate, `${where}.old_rate`);
    cents(r.new_rate, `${where}.new_rate`);
  }
}

/**
 * The rules of an invoiceable item that its schema states in words only, checked by stage 1 of an
 * import (checkFile, above) in this order: amounts in cents (`cents` reads one, reporting it at the
 * path given when it has more than two decimals), a retail item's one tier and its total, a fee's
 * category.
 */
export function invoiceableItemProblems(
  item: DatasetInvoiceableItem,
  where: string,
  cents: (value: number, where: string) => number,
  problems: string[],
): void {
  const tax = cents(item.tax_total, `${where}.tax_total`);
  const total = cents(item.total, `${where}.total`);
  if (item.kind === 'retail') {
    if (item.invoiceable_amounts.length !== 1) {
      problems.push(`${where}.invoiceable_amounts: a retail item has exactly one amount tier`);
    } else if (
      cents(item.invoiceable_amounts[0].amount, `${where}.invoiceable_amounts[0].amount`) + tax !==
      total
    ) {
      problems.push(`${where}.total: a retail item's total is its amount plus tax_total`);
    }
  }
  if (item.fee_category && item.kind !== 'fee')
    problems.push(`${where}.fee_category: only fees have a fee category`);
  if (item.coverage_amount !== undefined) cents(item.coverage_amount, `${where}.coverage_amount`);
  item.invoiceable_amounts.forEach((tier, position) => {
    if (item.kind !== 'retail' || position > 0) {
      cents(tier.amount, `${where}.invoiceable_amounts[${position}].amount`);
    }
  });
}
