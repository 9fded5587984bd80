import type { ApolloServerPlugin } from '@apollo/server';
import {
  defaultFieldResolver,
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  isUnionType,
  isAbstractType,
  Kind,
  type FieldNode,
  type FormattedExecutionResult,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { costOf } from './cost-directives';
import type { GraphqlContext } from './context';

/** The code of an operation stopped for what it really resolved or wrote (Apollo Router's name for it). */
export const ACTUAL_TOO_EXPENSIVE = 'COST_ACTUAL_TOO_EXPENSIVE';

/** What one operation may really do, whatever its estimate said. */
export interface ExecutionLimits {
  /** Objects resolved: each entry of a list, with the objects each entry's selection holds. */
  maxObjects: number;
  /** Bytes of the JSON response written. */
  maxBytes: number;
}

/** Bytes allowed per unit of GRAPHQL_MAX_COST, and the least allowed whatever it is. */
const BYTES_PER_COST = 256;
const MIN_BYTES = 1024 * 1024;

/**
 * The limits derived from GRAPHQL_MAX_COST: as many objects (the estimate counts every object and
 * the most entries of every list, so an operation whose lists hold what they declare stays within),
 * and 256 bytes per unit of cost for the response, at least 1 MiB.
 */
export function executionLimits(maxCost: number): ExecutionLimits {
  return { maxObjects: maxCost, maxBytes: Math.max(MIN_BYTES, BYTES_PER_COST * maxCost) };
}

/** One execution's count of objects resolved, and the error that stopped it, if any. */
class WorkMeter {
  objects = 0;
  stopped: GraphQLError | null = null;

  constructor(private readonly maxObjects: number) {}

  /** Adds `count` objects; past the limit, the operation is stopped (this and every later list). */
  add(count: number): void {
    this.objects += count;
    if (this.objects <= this.maxObjects || this.stopped) return;
    this.stopped = limitError(
      `The operation resolved more than ${this.maxObjects} objects, the most one operation may ` +
        'resolve (GRAPHQL_MAX_COST): its lists held more entries than their declared sizes. ' +
        'Ask for fewer entries (first, perPage) or fewer nested lists.',
      'objects',
      this.maxObjects,
      this.objects,
    );
  }
}

function limitError(message: string, name: string, maximum: number, actual: number): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: ACTUAL_TOO_EXPENSIVE, queryLimit: { name, maximum, actual } },
  });
}

/**
 * Each execution's meter, by its context and root value: a subscription keeps its context and
 * executes each event with the event as its root value, so each event is counted alone.
 */
const meters = new WeakMap<object, { root: unknown; meter: WorkMeter }>();

function meterOf(context: unknown, root: unknown, maxObjects: number): WorkMeter {
  // Every execution here has a context object; without one, each list is counted alone.
  if (typeof context !== 'object' || context === null) return new WorkMeter(maxObjects);
  let entry = meters.get(context);
  if (!entry || entry.root !== root) {
    entry = { root, meter: new WorkMeter(maxObjects) };
    meters.set(context, entry);
  }
  return entry.meter;
}

/** The weight of one answer of a field, as the estimate counts it (demand-control.ts). */
function weightOf(field: GraphQLField<unknown, unknown>): number {
  return costOf(field).weight ?? (isCompositeType(getNamedType(field.type)) ? 1 : 0);
}

const isList = (field: GraphQLField<unknown, unknown>) => isListType(getNullableType(field.type));

/**
 * The objects one entry of a list brings besides itself: those of the fields it selects that
 * answer one object (recursively), each weighing as in the estimate. Lists inside count when they
 * resolve. Directives (`@skip`, `@include`) and type conditions are not read: every branch counts.
 */
function selectionWeight(
  set: SelectionSetNode | undefined,
  parent: GraphQLCompositeType,
  info: GraphQLResolveInfo,
): number {
  if (!set) return 0;
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      const field =
        isObjectType(parent) || isInterfaceType(parent)
          ? parent.getFields()[selection.name.value]
          : undefined;
      if (!field || isList(field)) continue;
      const type = getNamedType(field.type);
      if (isCompositeType(type))
        total += weightOf(field) + selectionWeight(selection.selectionSet, type, info);
    } else {
      const condition =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection.typeCondition
          : info.fragments[selection.name.value]?.typeCondition;
      const type = condition ? info.schema.getType(condition.name.value) : parent;
      const inner =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection.selectionSet
          : info.fragments[selection.name.value]?.selectionSet;
      if (type && isCompositeType(type)) total += selectionWeight(inner, type, info);
    }
  }
  return total;
}

/** By the field's first node: a document is measured once, however often it runs. */
const entryWeights = new WeakMap<FieldNode, number>();

/** A union list's entry weights by the entry's type, by the field's first node. */
const unionEntryWeights = new WeakMap<FieldNode, Map<string, number>>();

/** The selections of `set` that apply to an entry of `type`: fragments on other types are left out. */
function applying(set: SelectionSetNode | undefined, type: GraphQLObjectType, info: GraphQLResolveInfo) {
  if (!set) return undefined;
  const applies = (condition: string | undefined) => {
    if (condition === undefined || condition === type.name) return true;
    const other = info.schema.getType(condition);
    return isAbstractType(other) && info.schema.isSubType(other, type);
  };
  return {
    ...set,
    selections: set.selections.filter((selection) =>
      selection.kind === Kind.FIELD
        ? true
        : applies(
            selection.kind === Kind.INLINE_FRAGMENT
              ? selection.typeCondition?.name.value
              : info.fragments[selection.name.value]?.typeCondition.name.value,
          ),
    ),
  };
}

/**
 * An entry of a list of a union (Federation's `_entities`) weighs what its own type selects: a
 * router asks one fragment per type, and each entry is of one.
 */
function unionEntryWeight(ownWeight: number, info: GraphQLResolveInfo, typeName: string): number {
  const key = info.fieldNodes[0];
  let byType = unionEntryWeights.get(key);
  if (!byType) unionEntryWeights.set(key, (byType = new Map()));
  let weight = byType.get(typeName);
  if (weight === undefined) {
    const type = info.schema.getType(typeName);
    if (!isObjectType(type)) return entryWeight(ownWeight, info);
    weight = ownWeight;
    for (const node of info.fieldNodes)
      weight += selectionWeight(applying(node.selectionSet, type, info), type, info);
    weight = Math.max(1, weight);
    byType.set(typeName, weight);
  }
  return weight;
}

/** What the entries of a list weigh together. */
function entriesWeight(
  ownWeight: number,
  entries: unknown[],
  context: unknown,
  info: GraphQLResolveInfo,
): number {
  const type = getNamedType(info.returnType);
  if (!isUnionType(type) || !type.resolveType) return entries.length * entryWeight(ownWeight, info);
  let total = 0;
  for (const entry of entries) {
    const name =
      entry === null || entry === undefined ? undefined : type.resolveType(entry, context, info, type);
    total +=
      typeof name === 'string' ? unionEntryWeight(ownWeight, info, name) : entryWeight(ownWeight, info);
  }
  return total;
}

function entryWeight(ownWeight: number, info: GraphQLResolveInfo): number {
  const key = info.fieldNodes[0];
  let weight = entryWeights.get(key);
  if (weight === undefined) {
    const type = getNamedType(info.returnType);
    weight = ownWeight;
    if (isCompositeType(type)) {
      for (const node of info.fieldNodes) weight += selectionWeight(node.selectionSet, type, info);
    }
    // Every entry counts, a string as much as an object.
    weight = Math.max(1, weight);
    entryWeights.set(key, weight);
  }
  return weight;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The resolvers the guard wrapped, as the fields declared them (undefined: a plain property). */
const declaredResolvers = new WeakMap<
  GraphQLField<unknown, unknown>,
  GraphQLFieldResolver<unknown, unknown> | undefined
>();

/** A field's own resolver, whether or not the guard counts its entries (undefined: a plain property). */
export function ownResolver(
  field: GraphQLField<unknown, unknown>,
): GraphQLFieldResolver<unknown, unknown> | undefined {
  return declaredResolvers.has(field) ? declaredResolvers.get(field) : field.resolve;
}

/**
 * A list field's resolver that counts the entries it answered. The list that passes the limit
 * throws the guard's error; every list after it answers none, unresolved (one error, not one per
 * list: the response is then the error alone, see ExecutionGuard and `guardStop`).
 */
function guarded(
  field: GraphQLField<unknown, unknown>,
  maxObjects: number,
): GraphQLFieldResolver<unknown, unknown> {
  const resolve = field.resolve ?? defaultFieldResolver;
  const ownWeight = weightOf(field);
  const count = (meter: WorkMeter, context: unknown, info: GraphQLResolveInfo, entries: unknown): unknown => {
    if (meter.stopped) return [];
    if (Array.isArray(entries) && entries.length > 0) {
      meter.add(entriesWeight(ownWeight, entries, context, info));
      if (meter.stopped) throw meter.stopped;
    }
    return entries;
  };
  return (source, args, context, info) => {
    const meter = meterOf(context, info.rootValue, maxObjects);
    if (meter.stopped) return [];
    const entries = resolve(source, args, context, info);
    return isPromiseLike(entries)
      ? entries.then((resolved) => count(meter, context, info, resolved))
      : count(meter, context, info, entries);
  };
}

/** The guard's error among an execution's errors, if it stopped it. */
export function guardStop(errors: readonly GraphQLError[] | undefined): GraphQLError | undefined {
  return errors?.find(
    (error) =>
      (error.originalError instanceof GraphQLError ? error.originalError : error).extensions?.code ===
      ACTUAL_TOO_EXPENSIVE,
  );
}

/**
 * The execution guard: every list field of the schema counts what it answers, so an operation
 * whose lists hold more than their declared sizes is stopped once it has resolved `maxObjects`
 * objects, whatever its estimate was. It costs one call per list answered (not per field or
 * entry), in graphql-jit and graphql-js alike, since both call the schema's resolvers. Mutates the
 * schema's fields, once, before it is served.
 */
export function guardExecution(schema: GraphQLSchema, limits: ExecutionLimits): GraphQLSchema {
  const subscription = schema.getSubscriptionType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      // A subscription's root field answers its events' source stream, not a list.
      if (type === subscription || !isList(field)) continue;
      if (declaredResolvers.has(field)) continue;
      declaredResolvers.set(field, field.resolve);
      field.resolve = guarded(field, limits.maxObjects);
    }
  }
  return schema;
}

/**
 * Answers an operation the guard stopped with its error alone (no partial data), and a response
 * longer than `maxBytes` with an error naming its size (`stringify`: Apollo's `stringifyResult`).
 */
export class ExecutionGuard {
  constructor(private readonly limits: ExecutionLimits) {}

  plugin(): ApolloServerPlugin<GraphqlContext> {
    return {
      async requestDidStart() {
        return {
          async willSendResponse({ contextValue, response }) {
            const stopped = meters.get(contextValue)?.meter.stopped;
            if (!stopped || response.body.kind !== 'single') return;
            const result = response.body.singleResult;
            contextValue.log.warn({ queryLimit: stopped.extensions.queryLimit }, 'graphql operation stopped');
            result.data = null;
            result.errors = [{ message: stopped.message, extensions: stopped.extensions }];
          },
        };
      },
    };
  }

  /** The response's text, or, past `maxBytes`, a response of the error alone. */
  written(text: string): string {
    // A UTF-16 unit is at most 3 bytes of UTF-8: most answers are measured by their length alone.
    if (text.length <= this.limits.maxBytes / 3) return text;
    const bytes = Buffer.byteLength(text);
    if (bytes <= this.limits.maxBytes) return text;
    const error = limitError(
      `The response holds ${bytes} bytes; the most one operation may write is ${this.limits.maxBytes} ` +
        '(256 bytes per unit of GRAPHQL_MAX_COST, at least 1 MiB). Ask for fewer entries or fields.',
      'bytes',
      this.limits.maxBytes,
      bytes,
    );
    const result: FormattedExecutionResult = {
      errors: [{ message: error.message, extensions: error.extensions }],
      data: null,
    };
    return `${JSON.stringify(result)}\n`;
  }
}
