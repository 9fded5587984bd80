import type { LoaderTools } from '../../graphql/loaders';
import type { EsignService } from './esign.service';

/** The services these loaders read. */
interface LoaderServices {
  readonly esign: EsignService;
}

/** The e-sign status of an event's documents (an event reached here was checked to be the caller's). */
export function esignLoaders({ esign }: LoaderServices, { lists }: LoaderTools) {
  return {
    esignByEvent: lists('esignByEvent', (ids) => esign.statusOfEvents(ids)),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof esignLoaders> {}
}
