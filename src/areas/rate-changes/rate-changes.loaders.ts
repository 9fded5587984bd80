import type { LoaderTools } from '../../graphql/loaders';
import type { RateChangesService } from './rate-changes.service';

/** The services these loaders read. */
interface LoaderServices {
  readonly rateChanges: RateChangesService;
}

/** Rate changes by id. */
export function rateChangesLoaders({ rateChanges }: LoaderServices, { byIds }: LoaderTools) {
  return {
    rateChanges: byIds('rateChanges', (ids) => rateChanges.rateChangesByIds(ids)),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof rateChangesLoaders> {}
}
