import { Extensions, UseMiddleware, type MiddlewareFn } from 'type-graphql';
import type { KeptList } from '../caching/kept-lists';
import type { GraphqlContext } from './context';

/** The field extension that marks a field as declaring the scope of what it reads. */
export const KEPT_EXTENSION = 'keptScope';

/**
 * Declares that a field's answer may be kept: what it reads is under the list's revision scope.
 * While a response is being kept, the scope's token is read before the field's data (so the data
 * is at least as new as the token it is kept under). A field that reads data without this, through
 * a resolver of its own, makes a response not kept at all (see GraphqlResponseCache).
 */
export function Kept<Root>(list: KeptList<Root>): MethodDecorator {
  const track: MiddlewareFn<GraphqlContext> = async ({ root, context }, next) => {
    if (context.trace) await context.trace.track(list.scope(root as Root));
    return next();
  };
  return (target, key, descriptor) => {
    Extensions({ [KEPT_EXTENSION]: true })(target, key, descriptor);
    UseMiddleware(track)(target, key, descriptor);
  };
}
