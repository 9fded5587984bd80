import type { Config } from '../config';
import { openStore, type Store } from '../store/database';
import { isStale, listingStates, rebuildListings, type ListingState } from '../store/listings';
import { LISTING_SOURCES } from '../modules';
import { hasSchema } from '../store/lookups';
import { refuseNewerDatabase } from '../store/schema-check';
import { CommandFailure, parseCommandArgs, UsageError } from './args';
import { describeDatabase, formatCount } from './context';
import type { CliIo } from './io';

const ACTIONS = ['status', 'rebuild'] as const;
type Action = (typeof ACTIONS)[number];

/** `listings status|rebuild [--all]`: the stored listings' versions, and their rebuild. */
export async function listingsCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (!ACTIONS.includes(action as Action)) {
    throw new UsageError(
      action
        ? `unknown listings action "${action}" (${ACTIONS.join(', ')})`
        : `listings needs an action: ${ACTIONS.join(', ')}`,
    );
  }
  const { values } = parseCommandArgs(rest, action === 'rebuild' ? { all: { type: 'boolean' } } : {}, 0);
  const store = openStore(config.databaseUrl);
  try {
    await requireMigrated(store);
    if (action === 'status') {
      io.out(`listings in ${describeDatabase(config)}:`);
      for (const state of await listingStates(store.db, LISTING_SOURCES)) io.out(`  ${stateLine(state)}`);
      return 0;
    }
    const done = await rebuildListings(store, LISTING_SOURCES, {
      all: values.all === true,
      onBatch: (table, written) => io.out(`  ${table}: ${formatCount(written)} written`),
    });
    for (const result of done) {
      io.out(
        `listings of ${result.table} rebuilt to version ${result.version}: ${formatCount(result.written)} written${result.resumed ? ' (resumed where a stopped rebuild left off)' : ''}`,
      );
    }
    if (done.length === 0)
      io.out('every listing is current: nothing to rebuild (--all rebuilds them anyway)');
    return 0;
  } finally {
    await store.close();
  }
}

async function requireMigrated(store: Store): Promise<void> {
  await refuseNewerDatabase(store.db);
  if (!(await hasSchema(store))) {
    throw new CommandFailure('the database has no schema yet: run `facility-ops migrate` (or `start`) first');
  }
}

/** One table's state in a line. */
export function stateLine(state: ListingState): string {
  const rows = `${formatCount(state.rows)} row${state.rows === 1 ? '' : 's'}`;
  if (state.rebuilding) {
    const of = state.rebuilding.version === state.current ? 'this release' : 'another release';
    return `${state.table}: rebuilding to version ${state.rebuilding.version} (${of}), stopped or under way, ${formatCount(state.rebuilding.written)} of ${rows} written; \`listings rebuild\` resumes it`;
  }
  if (!isStale(state)) return `${state.table}: current (version ${state.current}, ${rows})`;
  const stored = state.stored === '' ? 'written before versions were kept' : `version ${state.stored}`;
  return `${state.table}: stale (${stored}; this release writes ${state.current}; ${rows}): \`listings rebuild\` or \`migrate\` rebuilds them`;
}
