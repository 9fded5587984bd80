/**
 * The live journal's records and ports, as the subscriptions kit declares them (src/live): the
 * area implements the journal (live-events.repository.ts) and serves the subscriptions
 * (live.resolver.ts).
 */
export type {
  LiveEvent,
  LiveFeed,
  LiveFilter,
  LiveItem,
  LiveJournal,
  LiveListening,
  LiveNotifications,
  ResourceWatch,
  WatchedResource,
} from '../../live/live.ports';
