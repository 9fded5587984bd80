import type { LoaderTools } from '../../graphql/loaders';
import type { DocumentsService } from './documents.service';

/** The services these loaders read. */
interface LoaderServices {
  readonly documents: DocumentsService;
}

/** Events by id, and an event's documents; documents by id (checked through their event by their reader). */
export function documentsLoaders({ documents }: LoaderServices, { byIds, lists }: LoaderTools) {
  return {
    events: byIds('events', (ids) => documents.eventsByIds(ids)),
    documents: lists('documents', (ids) => documents.documentsByIds(ids)),
    documentsByEvent: lists('documentsByEvent', (ids) => documents.documentsByEventIds(ids)),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof documentsLoaders> {}
}
