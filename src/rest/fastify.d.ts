import type { Caller } from '../kernel/caller';
import type { KeptList } from '../caching/kept-lists';
import type { EnvelopeState } from './envelope';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once close() begins: answers finished from then on close their connection. */
    closing: boolean;
  }
  interface FastifyRequest {
    /** The authenticated client application; set before any /v1 or /graphql handler runs. */
    caller: Caller | null;
    envelope: EnvelopeState;
    /** Decoded pairs of a form-encoded body, which OAuth 1.0 signs. */
    formPairs: Array<[string, string]>;
    /** Names this request gives a command's fields beside its route's `names` (set by the handler). */
    restNames: Readonly<Record<string, string>> | null;
    /** The route's pattern (`/v1/:facility_id/flippers`), null when none matched; set in onRequest. */
    routeUrl: string | null;
    /** The route's config (empty when none matched); set in onRequest, read instead of routeOptions. */
    routeConfig: FastifyContextConfig;
  }
  interface FastifyContextConfig {
    /** Rails wrapper key echoed as an empty object in meta.parameters. */
    wrapper?: string;
    /**
     * How the route's parameters are named where a command's field is named otherwise
     * (`{ noteText: 'note.note_text' }`); any other field is its name in snake_case.
     */
    names?: Readonly<Record<string, string>>;
    /** The list whose pages the route keeps between requests (an area's `<area>.kept.ts`; see keptPagesHook). */
    kept?: KeptList<never>;
  }
}
