import {
  DirectiveLocation,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  isInterfaceType,
  isListType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { Directive } from 'type-graphql';

/**
 * The IBM GraphQL cost directive specification's two directives (https://ibm.github.io/graphql-specs/cost-spec.html),
 * on the places this service reads them: fields and object types.
 */
export const costDirective = new GraphQLDirective({
  name: 'cost',
  description: 'The weight of a field, or of every field answering an object type (a number as text).',
  locations: [DirectiveLocation.FIELD_DEFINITION, DirectiveLocation.OBJECT],
  args: { weight: { type: new GraphQLNonNull(GraphQLString) } },
});

export const listSizeDirective = new GraphQLDirective({
  name: 'listSize',
  description: 'The size of the list a field answers, or of the lists named by sizedFields.',
  locations: [DirectiveLocation.FIELD_DEFINITION],
  args: {
    assumedSize: { type: GraphQLInt },
    slicingArguments: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
    sizedFields: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
    requireOneSlicingArgument: { type: GraphQLBoolean, defaultValue: true },
  },
});

export const COST_DIRECTIVES: readonly GraphQLDirective[] = [costDirective, listSizeDirective];

/** What a field declares with `@cost` and `@listSize`, in the code's terms. */
export interface CostHint {
  /** `@cost(weight:)`: the field's own weight (default: 1 for an object, 0 for a scalar or enum). */
  weight?: number;
  /** `@listSize(assumedSize:)`: the most entries the service answers (larger slicing values read as this). */
  assumedSize?: number;
  /** `@listSize(slicingArguments:)`: arguments whose value is the size. */
  slicingArguments?: readonly string[];
  /** `@listSize(sizedFields:)`: the list fields of the answer the size applies to (a page's `entries`). */
  sizedFields?: readonly string[];
}

const quoted = (names: readonly string[]) => `[${names.map((name) => JSON.stringify(name)).join(', ')}]`;

/** The directives' SDL for a hint. */
export function costDirectives(hint: CostHint): string[] {
  const sdl: string[] = [];
  if (hint.weight !== undefined) sdl.push(`@cost(weight: "${hint.weight}")`);
  const args: string[] = [];
  if (hint.assumedSize !== undefined) args.push(`assumedSize: ${hint.assumedSize}`);
  if (hint.slicingArguments) {
    args.push(`slicingArguments: ${quoted(hint.slicingArguments)}`);
    // The service reads an absent slicing argument as its default page size: none is required.
    args.push('requireOneSlicingArgument: false');
  }
  if (hint.sizedFields) args.push(`sizedFields: ${quoted(hint.sizedFields)}`);
  if (args.length > 0) sdl.push(`@listSize(${args.join(', ')})`);
  return sdl;
}

/** Declares a field's cost (TypeGraphQL `@Directive`s, emitted into schema.graphql). */
export function Cost(hint: CostHint): MethodDecorator & PropertyDecorator {
  const decorators = costDirectives(hint).map((sdl) => Directive(sdl));
  return (target: object, key: string | symbol, descriptor?: PropertyDescriptor) => {
    for (const decorate of decorators) {
      (decorate as (t: object, k: string | symbol, d?: PropertyDescriptor) => void)(target, key, descriptor);
    }
  };
}

/** The cost declarations of one field, read from its directives (once per field: see costOf). */
export interface FieldCost {
  weight: number | null;
  assumedSize: number | null;
  slicingArguments: readonly string[];
  sizedFields: readonly string[];
  requireOneSlicingArgument: boolean;
}

const NONE: FieldCost = {
  weight: null,
  assumedSize: null,
  slicingArguments: [],
  sizedFields: [],
  requireOneSlicingArgument: false,
};

const read = new WeakMap<object, FieldCost>();

/** A field's declarations; `weight` falls back to its object type's `@cost`. */
export function costOf(field: GraphQLField<unknown, unknown>): FieldCost {
  let known = read.get(field);
  if (known) return known;
  const cost = field.astNode ? getDirectiveValues(costDirective, field.astNode) : undefined;
  const size = field.astNode ? getDirectiveValues(listSizeDirective, field.astNode) : undefined;
  const typeCost = typeWeight(getNamedType(field.type));
  known =
    cost || size || typeCost !== null
      ? {
          weight: cost ? Number(cost.weight) : typeCost,
          assumedSize: typeof size?.assumedSize === 'number' ? size.assumedSize : null,
          slicingArguments: (size?.slicingArguments as string[] | undefined) ?? [],
          sizedFields: (size?.sizedFields as string[] | undefined) ?? [],
          requireOneSlicingArgument: size?.requireOneSlicingArgument === true,
        }
      : NONE;
  read.set(field, known);
  return known;
}

function typeWeight(type: GraphQLNamedType): number | null {
  if (!isObjectType(type) || !type.astNode) return null;
  const cost = getDirectiveValues(costDirective, type.astNode);
  return cost ? Number(cost.weight) : null;
}

/**
 * Every misplaced cost declaration of a schema, each naming its field: a weight that is not a
 * number, `@listSize` on a field answering no list without sizedFields, a slicing argument the
 * field lacks or that is no Int, a sized field that is no list of the answer.
 */
export function costDirectiveProblems(schema: GraphQLSchema): string[] {
  const problems: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type) && type.astNode) {
      const cost = getDirectiveValues(costDirective, type.astNode);
      if (cost && !validWeight(cost.weight)) {
        problems.push(`${type.name}: @cost(weight: "${String(cost.weight)}") is not a number of 0 or more`);
      }
    }
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const name = `${type.name}.${field.name}`;
      const node = field.astNode;
      if (!node) continue;
      const cost = getDirectiveValues(costDirective, node);
      if (cost && !validWeight(cost.weight)) {
        problems.push(`${name}: @cost(weight: "${String(cost.weight)}") is not a number of 0 or more`);
      }
      const size = getDirectiveValues(listSizeDirective, node);
      if (!size) continue;
      const sizedFields = (size.sizedFields as string[] | undefined) ?? [];
      const isList = isListType(getNullableType(field.type));
      if (!isList && sizedFields.length === 0) {
        problems.push(`${name}: @listSize on a field that answers no list (and names no sizedFields)`);
      }
      if (typeof size.assumedSize === 'number' && size.assumedSize < 0) {
        problems.push(`${name}: @listSize(assumedSize: ${size.assumedSize}) is below 0`);
      }
      for (const argument of (size.slicingArguments as string[] | undefined) ?? []) {
        const arg = field.args.find((a) => a.name === argument);
        if (!arg)
          problems.push(`${name}: @listSize slicing argument "${argument}" is not an argument of the field`);
        else if (getNamedType(arg.type) !== GraphQLInt)
          problems.push(`${name}: @listSize slicing argument "${argument}" is not an Int`);
      }
      const answer = getNamedType(field.type);
      for (const sized of sizedFields) {
        const child = isObjectType(answer) || isInterfaceType(answer) ? answer.getFields()[sized] : undefined;
        if (!child)
          problems.push(`${name}: @listSize sized field "${sized}" is not a field of ${answer.name}`);
        else if (!isListType(getNullableType(child.type)))
          problems.push(`${name}: @listSize sized field "${sized}" is not a list`);
      }
    }
  }
  return problems;
}

function validWeight(weight: unknown): boolean {
  return (
    typeof weight === 'string' &&
    weight.trim() !== '' &&
    Number.isFinite(Number(weight)) &&
    Number(weight) >= 0
  );
}

/** Refuses a schema with misplaced cost declarations, naming each (at build, so before any request). */
export function assertCostDirectives(schema: GraphQLSchema): GraphQLSchema {
  const problems = costDirectiveProblems(schema);
  if (problems.length > 0) throw new Error(`cost directives misplaced:\n  ${problems.join('\n  ')}`);
  return schema;
}
