import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { Cost, type CostHint } from './cost-directives';
import {
  encodeCursor,
  MAX_SLICE,
  parseSlice,
  sliceOfLoaded,
  type Keyset,
  type ConnectionArgs,
  type CursorScope,
  type Slice,
} from '../kernel/connections';

/**
 * Relay's connection types over a page list's items: `<List>Connection { edges { cursor node }
 * pageInfo totalCount }`. The cursors are the kernel's (src/kernel/connections.ts): opaque, bound
 * to the list and its facility or company, holding the item's position (the list's order values
 * and its id).
 */

@ObjectType('PageInfo', {
  simpleResolvers: true,
  description: "Where a connection's edges sit in their list (Relay's connection specification).",
})
export class PageInfoObject {
  @Field({
    description: 'More items follow the last edge (known when walking forward, or when before was given).',
  })
  hasNextPage: boolean;

  @Field({
    description: 'More items precede the first edge (known when walking backward, or when after was given).',
  })
  hasPreviousPage: boolean;

  @Field(() => String, { nullable: true, description: "The first edge's cursor; null with no edges." })
  startCursor: string | null;

  @Field(() => String, { nullable: true, description: "The last edge's cursor; null with no edges." })
  endCursor: string | null;
}

/** An edge: an item and its cursor. */
export interface EdgeView<T> {
  cursor: string;
  node: T;
}

/** A connection as its resolver answers it. */
export interface ConnectionView<T> {
  edges: EdgeView<T>[];
  pageInfo: PageInfoObject;
  totalCount: number;
}

/** An edge type over an item type: `{ cursor node }` (subclass it with the edge's name). */
export function EdgeType<T extends object>(itemType: ClassType<T> | (abstract new () => T)) {
  @ObjectType({ simpleResolvers: true })
  abstract class Edge {
    @Field({ description: 'Where this item sits, for after or before.' })
    cursor: string;

    @Field(() => itemType)
    node: T;
  }
  return Edge;
}

/** A connection type over an edge type (subclass it with the connection's name). */
export function ConnectionType<E extends object>(
  edgeType: ClassType<E> | (abstract new () => E),
  what: string,
) {
  @ObjectType({ simpleResolvers: true })
  abstract class Connection {
    // Sized by the field answering the connection (connectionCost's sizedFields).
    @Field(() => [edgeType], {
      description: `The slice's ${what}, in list order (also when walking backward).`,
    })
    edges: E[];

    @Field(() => PageInfoObject)
    @Cost({ weight: 0 })
    pageInfo: PageInfoObject;

    @Field(() => Int, { description: `Every one of the list's ${what} (its filters applied).` })
    totalCount: number;
  }
  return Connection;
}

/**
 * The cost of a connection field: its `edges` count `first` or `last` (at most MAX_SLICE, which
 * they are when neither is given); the connection itself weighs nothing.
 */
export function connectionCost(): CostHint {
  return { weight: 0, assumedSize: MAX_SLICE, slicingArguments: ['first', 'last'], sizedFields: ['edges'] };
}

/** The argument descriptions of a connection field. */
export const CONNECTION_ARGUMENTS = {
  first: `The first n items (after the cursor \`after\`), 0 to ${MAX_SLICE}; ${MAX_SLICE} when neither first nor last is given.`,
  after: 'A cursor of this list: start after its item.',
  last: `The last n items (before the cursor \`before\`), 0 to ${MAX_SLICE}; not with first.`,
  before: 'A cursor of this list: stop before its item.',
} as const;

/** The arguments of a connection field without filters of its own. */
@ArgsType()
export class ConnectionArgsType implements ConnectionArgs {
  @Field(() => Int, { nullable: true, description: CONNECTION_ARGUMENTS.first })
  first?: number | null;

  @Field(() => String, { nullable: true, description: CONNECTION_ARGUMENTS.after })
  after?: string | null;

  @Field(() => Int, { nullable: true, description: CONNECTION_ARGUMENTS.last })
  last?: number | null;

  @Field(() => String, { nullable: true, description: CONNECTION_ARGUMENTS.before })
  before?: string | null;
}

/**
 * A slice read by the store as a connection: each item through `node`, its cursor bound to `scope`.
 * Walking forward, hasNextPage is whether more items follow (or `before` bounds the walk), and
 * hasPreviousPage whether the walk started after a cursor; backward the other way round.
 */
export function connectionOf<T, N>(
  slice: Slice<T>,
  scope: CursorScope,
  args: ConnectionArgs,
  node: (item: T) => N,
): ConnectionView<N> {
  const given = (value: unknown) => value !== undefined && value !== null;
  const forward = !given(args.last);
  const edges = slice.entries.map((item, i) => ({
    cursor: encodeCursor(scope, slice.keys[i]),
    node: node(item),
  }));
  return {
    edges,
    pageInfo: {
      hasNextPage: forward ? slice.more || given(args.before) : given(args.before),
      hasPreviousPage: forward ? given(args.after) : slice.more || given(args.after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
    totalCount: slice.total,
  };
}

/**
 * A connection over a list already loaded whole (through a loader, so the lists of many parents
 * come in one statement, as their pages do): the arguments checked, the slice cut by position.
 * `keyOf` gives an item's position in the list's order (its order values, then its id).
 */
export function connectionOfLoaded<T, N>(
  all: readonly T[],
  args: ConnectionArgs,
  list: { scope: CursorScope; keyOf: (item: T) => Keyset; arity: number; defaultFirst?: number },
  node: (item: T) => N,
): ConnectionView<N> {
  const slice = parseSlice(args, list.scope, list.arity, list.defaultFirst);
  return connectionOf(sliceOfLoaded(all, list.keyOf, slice), list.scope, args, node);
}
