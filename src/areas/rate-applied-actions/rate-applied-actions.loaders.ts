import type { LoaderTools } from '../../graphql/loaders';
import type { RateAppliedActionsService } from './rate-applied-actions.service';

/** The services these loaders read. */
interface LoaderServices {
  readonly rateAppliedActions: RateAppliedActionsService;
}

/** Rate applied actions by id. */
export function rateAppliedActionsLoaders({ rateAppliedActions }: LoaderServices, { byIds }: LoaderTools) {
  return {
    rateAppliedActions: byIds('rateAppliedActions', (ids) => rateAppliedActions.rateAppliedActionsByIds(ids)),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof rateAppliedActionsLoaders> {}
}
