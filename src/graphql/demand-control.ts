import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { costOf } from './cost-directives';
import { isEntitiesField } from './federation';

/** Size assumed for a list field that declares none (`@listSize`). */
export const DEFAULT_LIST_SIZE = 50;

/** The request extension that asks for the estimate, and the response extension that carries it. */
export const COST_EXTENSION = 'cost';

/** The code of an operation refused for its estimated cost (Apollo Router's name for it). */
export const TOO_EXPENSIVE = 'COST_ESTIMATED_TOO_EXPENSIVE';

interface Estimate {
  cost: number;
  /** Whether a variable's value decided a size (then the estimate holds for these variables only). */
  variable: boolean;
}

/**
 * Estimates an operation's cost, before it runs, by the IBM cost specification: a field costs its
 * weight (`@cost`; by default 1 for an object, 0 for a scalar) plus its selections', times its size
 * when it answers a list: the first slicing argument given (a literal or a variable's value; above
 * `assumedSize` it reads as `assumedSize`, as the service reads a large `perPage`), else
 * `assumedSize`, else DEFAULT_LIST_SIZE. With `sizedFields` the size goes to those lists of the
 * answer (a page's `entries`) and the field counts once. Fragments are measured once per size.
 */
class CostEstimator {
  private readonly fragments = new Map<string, Estimate>();
  private readonly inProgress = new Set<string>();
  private readonly definitions = new Map<string, FragmentDefinitionNode>();

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly variables: Record<string, unknown>,
  ) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION)
        this.definitions.set(definition.name.value, definition);
    }
  }

  selectionSet(set: SelectionSetNode, parent: GraphQLCompositeType, sized: SizedFields | null): Estimate {
    const total: Estimate = { cost: 0, variable: false };
    for (const selection of set.selections) {
      let part: Estimate;
      if (selection.kind === Kind.FIELD) {
        part = this.field(selection, parent, sized);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? this.compositeType(selection.typeCondition.name.value)
          : parent;
        part =
          type && this.applies(type, parent) ? this.selectionSet(selection.selectionSet, type, sized) : ZERO;
      } else {
        const condition = this.definitions.get(selection.name.value)?.typeCondition.name.value;
        const type = condition === undefined ? undefined : this.compositeType(condition);
        part = type && this.applies(type, parent) ? this.fragment(selection.name.value, sized) : ZERO;
      }
      total.cost += part.cost;
      total.variable ||= part.variable;
    }
    return total;
  }

  /**
   * Whether a fragment on `condition` applies within `parent`: always, unless `parent` is an object
   * type (an entity's, below) and `condition` another or an abstract type without it.
   */
  private applies(condition: GraphQLCompositeType, parent: GraphQLCompositeType): boolean {
    if (!isObjectType(parent) || condition === parent) return true;
    return !isObjectType(condition) && this.schema.isSubType(condition, parent);
  }

  /**
   * Federation's `_entities`: a list sized by its representations, each counting 1 and the
   * selections that apply to its type (a router sends one fragment per type).
   */
  private entities(node: FieldNode): Estimate {
    const given = node.arguments?.find((a) => a.name.value === 'representations')?.value;
    let typeNames: unknown[] = [];
    let variable = false;
    if (given?.kind === Kind.LIST) {
      typeNames = given.values.map((value) => {
        if (value.kind !== Kind.OBJECT) return null;
        const typeName = value.fields.find((field) => field.name.value === '__typename')?.value;
        return typeName?.kind === Kind.STRING ? typeName.value : null;
      });
    } else if (given?.kind === Kind.VARIABLE) {
      variable = true;
      const values = this.variables[given.name.value];
      if (Array.isArray(values))
        typeNames = values.map((value) => (value as { __typename?: unknown } | null)?.__typename);
    }
    const counts = new Map<string, number>();
    for (const typeName of typeNames) {
      if (typeof typeName === 'string') counts.set(typeName, (counts.get(typeName) ?? 0) + 1);
    }
    const total: Estimate = { cost: 0, variable };
    for (const [typeName, count] of counts) {
      const type = this.compositeType(typeName);
      if (!type) continue;
      const children = node.selectionSet ? this.selectionSet(node.selectionSet, type, null) : ZERO;
      total.cost += count * (1 + children.cost);
      total.variable ||= children.variable;
    }
    return total;
  }

  private field(node: FieldNode, parent: GraphQLCompositeType, sized: SizedFields | null): Estimate {
    const name = node.name.value;
    // Introspection is static schema data, and is off in production.
    if (name.startsWith('__')) return ZERO;
    if (isEntitiesField(name) && parent === this.schema.getQueryType()) return this.entities(node);
    const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
    if (!field) return ZERO;
    const type = getNamedType(field.type);
    const declared = costOf(field);
    const size = this.size(node, declared);
    const toChildren: SizedFields | null =
      declared.sizedFields.length > 0 ? { names: declared.sizedFields, size: size.count } : null;
    const children =
      node.selectionSet && isCompositeType(type)
        ? this.selectionSet(node.selectionSet, type, toChildren)
        : ZERO;
    const weight = declared.weight ?? (isCompositeType(type) ? 1 : 0);
    let count = 1;
    if (sized?.names.includes(name)) count = sized.size;
    else if (isListType(getNullableType(field.type)) && toChildren === null) count = size.count;
    return {
      cost: count * (weight + children.cost),
      variable: children.variable || size.variable,
    };
  }

  private size(node: FieldNode, declared: ReturnType<typeof costOf>): { count: number; variable: boolean } {
    const most = declared.assumedSize ?? DEFAULT_LIST_SIZE;
    // A variable left out decides the size too (as its absence): the estimate is for these variables.
    let variable = false;
    for (const argument of declared.slicingArguments) {
      const given = node.arguments?.find((a) => a.name.value === argument);
      if (!given) continue;
      const value = this.intValue(given.value);
      variable ||= value.variable;
      if (value.value === null) continue;
      return { count: Math.max(0, Math.min(most, value.value)), variable };
    }
    return { count: most, variable };
  }

  private intValue(value: ValueNode): { value: number | null; variable: boolean } {
    if (value.kind === Kind.INT) return { value: Number(value.value), variable: false };
    if (value.kind === Kind.VARIABLE) {
      const given = this.variables[value.name.value];
      return { value: typeof given === 'number' && Number.isFinite(given) ? given : null, variable: true };
    }
    return { value: null, variable: false };
  }

  private fragment(name: string, sized: SizedFields | null): Estimate {
    const key = sized ? `${name}\n${sized.size}` : name;
    const known = this.fragments.get(key);
    if (known) return known;
    const definition = this.definitions.get(name);
    if (!definition || this.inProgress.has(key)) return ZERO;
    const type = this.compositeType(definition.typeCondition.name.value);
    if (!type) return ZERO;
    this.inProgress.add(key);
    const estimate = this.selectionSet(definition.selectionSet, type, sized);
    this.inProgress.delete(key);
    this.fragments.set(key, estimate);
    return estimate;
  }

  private compositeType(name: string): GraphQLCompositeType | undefined {
    const type = this.schema.getType(name);
    return type && isCompositeType(type) ? type : undefined;
  }
}

interface SizedFields {
  names: readonly string[];
  size: number;
}

const ZERO: Estimate = { cost: 0, variable: false };

/** The estimated cost of running `operation` of `document` with `variables`. */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): number {
  return estimate(schema, document, operation, variables).cost;
}

function estimate(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): Estimate {
  const root = schema.getRootType(operation.operation);
  if (!root) return ZERO;
  const result = new CostEstimator(schema, document, variables).selectionSet(
    operation.selectionSet,
    root,
    null,
  );
  return { cost: Math.round(result.cost), variable: result.variable };
}

/** Whether the request asks for the estimate: `"extensions": { "cost": true }`. */
function asksForCost(extensions: Record<string, unknown> | undefined): boolean {
  return extensions?.[COST_EXTENSION] === true;
}

/**
 * Demand control: each operation's cost is estimated after validation, before execution, and one
 * over `maxCost` is refused (HTTP 400, `COST_ESTIMATED_TOO_EXPENSIVE`, the estimate and the limit
 * in `extensions.cost`). A request with `extensions: { cost: true }` gets the estimate in the
 * response's `extensions.cost`. An estimate no variable decided is kept with its document.
 */
export function demandControl(schema: GraphQLSchema, maxCost: number): ApolloServerPlugin {
  const kept = new WeakMap<DocumentNode, Map<string, number>>();
  return {
    async requestDidStart({ request: asked }) {
      let estimated = 0;
      // Only a request asking for the estimate has its answer written to.
      const report = asksForCost(asked.extensions);
      return {
        async didResolveOperation({ document, operation, operationName, request }) {
          if (!operation) return;
          const key = operationName ?? '';
          let byName = kept.get(document);
          const known = byName?.get(key);
          if (known !== undefined) {
            estimated = known;
          } else {
            const result = estimate(schema, document, operation, request.variables ?? {});
            estimated = result.cost;
            if (!result.variable) {
              if (!byName) kept.set(document, (byName = new Map()));
              byName.set(key, estimated);
            }
          }
          if (estimated <= maxCost) return;
          const named = operation.name ? `Operation "${operation.name.value}"` : 'The operation';
          throw new GraphQLError(
            `${named} may return about ${estimated} objects (its estimated cost); the limit is ` +
              `${maxCost}. Each object counts 1 and a list counts its page size (its @listSize, ` +
              `${DEFAULT_LIST_SIZE} when it declares none): ask for fewer nested lists or smaller pages.`,
            {
              extensions: {
                code: TOO_EXPENSIVE,
                cost: { estimated, maximum: maxCost },
                queryLimit: { name: 'cost', maximum: maxCost, actual: estimated },
                http: { status: 400 },
              },
            },
          );
        },
        ...(report && {
          async willSendResponse({ response }) {
            if (response.body.kind !== 'single') return;
            const result = response.body.singleResult;
            result.extensions = { ...result.extensions, [COST_EXTENSION]: { estimated, maximum: maxCost } };
          },
        }),
      };
    },
  };
}
