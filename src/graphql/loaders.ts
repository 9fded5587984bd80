import DataLoader from 'dataloader';
import type { Caller } from '../kernel/caller';
import { activeTracing, inSpan } from '../telemetry/tracing';

/** Keys per batch: each batch is one SQL statement with an IN list of this many values at most. */
export const MAX_BATCH_SIZE = 500;

/**
 * Per-request DataLoaders: one batch (one SQL statement) per tick for each kind of record, cached
 * for the request only. Each answers null for a record outside the caller's company, so navigation
 * between records never leaves it. Each area declares its loaders here (`<area>.loaders.ts`
 * extends this interface) and hands their factory in with its module; the composition root
 * (src/modules.ts) makes them, and checks that the two agree.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the areas' loaders extend it
export interface Loaders {}

/** The loaders of one request, made for its caller. */
export type LoaderSource = (caller: Caller) => Loaders;

/** What an area's loaders are made with, besides its services. */
export interface LoaderTools {
  readonly caller: Caller;
  /**
   * Records looked up by id, checked against the caller's facilities (through the facilities
   * loader, which the facility a query starts from primes), so a stray id never reaches another
   * company's data.
   */
  byIds<T extends { facilityId: string }>(
    name: string,
    batch: (ids: readonly string[]) => Promise<(T | null)[]>,
  ): DataLoader<string, T | null>;
  /** Lists under a record, which comes from a record already checked. */
  lists<T>(name: string, batch: (ids: readonly string[]) => Promise<T[]>): DataLoader<string, T>;
}

/** An area's loaders, made for one request with the services `S` they read. */
export type LoaderFactory<S, L extends object = object> = (services: S, tools: LoaderTools) => L;

/** Keeps a batch's key order and nulls, dropping records of other companies. */
export function ownedBy<T>(companyId: string, companyOf: (record: T) => string) {
  return (records: (T | null)[]): (T | null)[] =>
    records.map((record) => (record !== null && companyOf(record) === companyId ? record : null));
}

/**
 * The facility of a record already checked to be the caller's (through the facilities loader,
 * cached for the request), for its time zone or to navigate to it: a missing one is a data fault.
 */
export async function facilityOf<F>(
  ctx: { readonly loaders: { readonly facilities: DataLoader<string, F | null> } },
  record: { id: string; facilityId: string },
  what: string,
): Promise<F> {
  const facility = await ctx.loaders.facilities.load(record.facilityId);
  if (!facility) throw new Error(`facility ${record.facilityId} of ${what} ${record.id} is missing`);
  return facility;
}

const OPTIONS = { maxBatchSize: MAX_BATCH_SIZE } as const;

/** With tracing on, each batch is a span (`dataloader ledgers`, its key count); off, the function itself. */
export function traceBatches<K, V>(
  name: string,
  batch: (keys: readonly K[]) => Promise<V[]>,
): (keys: readonly K[]) => Promise<V[]> {
  const tracing = activeTracing();
  if (!tracing) return batch;
  return (keys) =>
    inSpan(
      tracing,
      `dataloader ${name}`,
      { 'dataloader.name': name, 'dataloader.batch_size': keys.length },
      () => batch(keys),
    );
}

/**
 * One request's loaders: every factory's, made with `services`. `facilitiesOf` names, among them,
 * the loader of the caller's facilities that `byIds` checks records against.
 */
export function createLoaders<S>(
  factories: readonly LoaderFactory<S>[],
  services: S,
  caller: Caller,
  facilitiesOf: (loaders: Loaders) => DataLoader<string, object | null>,
): Loaders {
  // Filled in by the factories below, each the part of `Loaders` its area declares.
  const loaders = {} as Loaders;
  let facilities: DataLoader<string, object | null> | undefined;
  /** Nulls the records whose facility is not one of the caller's company. */
  async function ownRecords<T extends { facilityId: string } | null>(records: T[]): Promise<(T | null)[]> {
    facilities ??= facilitiesOf(loaders);
    const ids = [...new Set(records.flatMap((r) => (r ? [r.facilityId] : [])))];
    const found = await facilities.loadMany(ids);
    const own = new Set(ids.filter((_id, i) => found[i] !== null && !(found[i] instanceof Error)));
    return records.map((r) => (r !== null && own.has(r.facilityId) ? r : null));
  }
  const tools: LoaderTools = {
    caller,
    byIds: <T extends { facilityId: string }>(
      name: string,
      batch: (ids: readonly string[]) => Promise<(T | null)[]>,
    ) =>
      new DataLoader<string, T | null>(
        traceBatches(name, async (ids) => ownRecords(await batch(ids))),
        OPTIONS,
      ),
    lists: <T>(name: string, batch: (ids: readonly string[]) => Promise<T[]>) =>
      new DataLoader<string, T>(traceBatches(name, batch), OPTIONS),
  };
  for (const factory of factories) Object.assign(loaders, factory(services, tools));
  return loaders;
}
