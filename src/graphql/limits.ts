/*
 * Kept rather than GraphQL Armor's max-depth and max-aliases (compared by `npm run
 * bench:kept-copies`): Armor counts a fragment's depth again at every spread (40 levels where the
 * fragment bomb of the bench nests 14) and answers "Syntax Error: Query depth limit of 12 exceeded,
 * found 40." without the `queryLimit` extension the service's clients read; this rule names the
 * operation, says what to do, and measures each fragment once.
 */
import {
  GraphQLError,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** Upper bounds a single operation must stay within; checked while validating, before any resolver runs. */
export interface QueryLimits {
  /** Nesting of fields: `{ facility { id } }` is 2. */
  maxDepth: number;
  /** Aliased fields, counting a fragment once per spread. */
  maxAliases: number;
}

/** The estimated cost is demand control's (demand-control.ts, GRAPHQL_MAX_COST). */
export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxDepth: 12, maxAliases: 30 };

interface Measure {
  depth: number;
  aliases: number;
}

const ZERO: Measure = { depth: 0, aliases: 0 };

/**
 * Measures selection sets, each fragment once (memoized, so a "fragment bomb" costs linear time
 * here); a fragment cycle or an unknown field measures zero and is left to graphql-js's own rules.
 */
class Measurer {
  private readonly fragments = new Map<string, Measure>();
  private readonly inProgress = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly context: ValidationContext,
  ) {}

  selectionSet(set: SelectionSetNode, parent: GraphQLCompositeType): Measure {
    const total: Measure = { depth: 0, aliases: 0 };
    for (const selection of set.selections) {
      let part: Measure;
      if (selection.kind === Kind.FIELD) {
        part = this.field(selection, parent);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? this.compositeType(selection.typeCondition.name.value)
          : parent;
        part = type ? this.selectionSet(selection.selectionSet, type) : ZERO;
      } else {
        part = this.fragment(selection.name.value);
      }
      total.depth = Math.max(total.depth, part.depth);
      total.aliases += part.aliases;
    }
    return total;
  }

  private field(node: FieldNode, parent: GraphQLCompositeType): Measure {
    const name = node.name.value;
    // Introspection is static schema data, and is off in production.
    if (name.startsWith('__')) return { depth: 1, aliases: node.alias ? 1 : 0 };
    const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
    if (!field) return ZERO;
    const type = getNamedType(field.type);
    const children =
      node.selectionSet && isCompositeType(type) ? this.selectionSet(node.selectionSet, type) : ZERO;
    return { depth: 1 + children.depth, aliases: (node.alias ? 1 : 0) + children.aliases };
  }

  private fragment(name: string): Measure {
    const known = this.fragments.get(name);
    if (known) return known;
    const definition = this.context.getFragment(name);
    if (!definition || this.inProgress.has(name)) return ZERO;
    const type = this.compositeType(definition.typeCondition.name.value);
    if (!type) return ZERO;
    this.inProgress.add(name);
    const measure = this.selectionSet(definition.selectionSet, type);
    this.inProgress.delete(name);
    this.fragments.set(name, measure);
    return measure;
  }

  private compositeType(name: string): GraphQLCompositeType | undefined {
    const type = this.schema.getType(name);
    return type && isCompositeType(type) ? type : undefined;
  }
}

function limitError(message: string, name: string, maximum: number, actual: number): GraphQLError {
  return new GraphQLError(message, { extensions: { queryLimit: { name, maximum, actual } } });
}

/** A validation rule refusing operations over the depth or alias limits, with the numbers. */
export function queryLimitsRule(limits: QueryLimits = DEFAULT_QUERY_LIMITS): ValidationRule {
  return (context) => {
    const schema = context.getSchema();
    const measurer = new Measurer(schema, context);
    return {
      OperationDefinition(node) {
        const root = schema.getRootType(node.operation);
        if (!root) return;
        const { depth, aliases } = measurer.selectionSet(node.selectionSet, root);
        const operation = node.name ? `Operation "${node.name.value}"` : 'The operation';
        if (depth > limits.maxDepth) {
          context.reportError(
            limitError(
              `${operation} nests fields ${depth} levels deep; the limit is ${limits.maxDepth}. ` +
                'Query less deeply, or in two requests.',
              'depth',
              limits.maxDepth,
              depth,
            ),
          );
        }
        if (aliases > limits.maxAliases) {
          context.reportError(
            limitError(
              `${operation} uses ${aliases} aliases; the limit is ${limits.maxAliases}. ` +
                'Use fewer aliases, or several requests.',
              'aliases',
              limits.maxAliases,
              aliases,
            ),
          );
        }
      },
    };
  };
}
