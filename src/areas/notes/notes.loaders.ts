import type { LoaderTools } from '../../graphql/loaders';
import type { NotesService } from './notes.service';

/** The services these loaders read. */
interface LoaderServices {
  readonly notes: NotesService;
}

/** Note events by id, and the notes on a tenant, a unit or a ledger. */
export function notesLoaders({ notes }: LoaderServices, { byIds, lists }: LoaderTools) {
  return {
    noteEvents: byIds('noteEvents', (ids) => notes.noteEventsByIds(ids)),
    notesByTenant: lists('notesByTenant', (ids) => notes.notesByTenantIds(ids)),
    notesByUnit: lists('notesByUnit', (ids) => notes.notesByUnitIds(ids)),
    notesByLedger: lists('notesByLedger', (ids) => notes.notesByLedgerIds(ids)),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof notesLoaders> {}
}
