import {
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLUnionType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLFieldConfigMap,
  type GraphQLFieldResolver,
  type GraphQLNamedType,
  type GraphQLType,
  type GraphQLTypeResolver,
} from 'graphql';
import { graphqlSchema, printWithDirectives } from '../graphql/schema';

/** Gateway resolvers by type and field; a field without one reads the property of its name. */
export type GatewayResolvers = Record<
  string,
  Record<string, GraphQLFieldResolver<unknown, unknown>> & {
    __resolveType?: GraphQLTypeResolver<unknown, unknown>;
    /** Subscription fields: where each one's events come from. */
    __subscribe?: Record<string, GraphQLFieldResolver<unknown, unknown>>;
  }
>;

/**
 * The part of the graph the contract can feed, by type: the fields kept. A type not named here
 * keeps every field (the records the contract answers whole: items, insurance, rate changes...).
 */
export const GATEWAY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Query: ['facility', 'company'],
  // The contract has no feed of events: only a resource it answers can be watched (docs/subscriptions.md).
  Subscription: ['eventDocuments'],
  Mutation: ['createNote', 'reviewMoveInCost', 'payRetail', 'sendEsignableDocuments'],
  Facility: [
    'id',
    'flippers',
    'flipper',
    'rateAppliedActions',
    'invoiceableItems',
    'invoiceableItemFees',
    'event',
  ],
  Company: ['id', 'rateChangeUpdates'],
  Event: ['id', 'documents'],
  Ledger: ['id', 'insurance', 'services', 'discounts'],
  Document: ['id', 'description', 'type', 'isRelevant', 'createdAt'],
  RateAppliedAction: [
    'rateInfo',
    'source',
    'completedOn',
    'completedBy',
    'employeeId',
    'userId',
    'timeCompleted',
    'event',
    'oldLedgerId',
    'oldLedger',
    'newLedgerId',
    'newLedger',
    'unitId',
    'leadId',
  ],
  RateChangeUpdate: [
    'id',
    'facilityName',
    'tenantId',
    'tenantName',
    'unitId',
    'unitName',
    'changedAt',
    'oldRate',
    'newRate',
    'effectiveOnDate',
  ],
  NoteEvent: ['id', 'notes', 'createdBy', 'unitId', 'tenantId'],
  SuccessfulPaymentEvent: ['id', 'amount', 'success', 'date', 'paymentMethod', 'changeDue'],
  SendEsignableDocumentsPayload: ['eventId'],
  SessionDocument: ['sessionDocumentId', 'description', 'type', 'isRelevant', 'createdAt'],
};

/**
 * The gateway's schema: the service's own, cut down to `GATEWAY_FIELDS` (so a query the gateway
 * answers is answered the same way, with the same names and scalars, by the system of record),
 * with the gateway's resolvers in place of the service's.
 */
export function gatewaySchema(resolvers: GatewayResolvers = {}): GraphQLSchema {
  const source = graphqlSchema();
  const built = new Map<string, GraphQLNamedType>();

  const named = (type: GraphQLNamedType): GraphQLNamedType => {
    if (!isObjectType(type) && !isInterfaceType(type) && !isUnionType(type)) return type; // scalars, enums, inputs
    const existing = built.get(type.name);
    if (existing) return existing;
    let made: GraphQLNamedType;
    const own = resolvers[type.name] ?? {};
    if (isUnionType(type)) {
      const config = type.toConfig();
      made = new GraphQLUnionType({
        ...config,
        types: () => config.types.map((t) => named(t) as GraphQLObjectType),
        resolveType: own.__resolveType,
      });
    } else if (isInterfaceType(type)) {
      const config = type.toConfig();
      made = new GraphQLInterfaceType({
        ...config,
        fields: () => fieldsOf(type.name, config.fields),
        interfaces: () => config.interfaces.map((i) => named(i) as GraphQLInterfaceType),
        resolveType: own.__resolveType,
      });
    } else {
      const config = type.toConfig();
      made = new GraphQLObjectType({
        ...config,
        fields: () => fieldsOf(type.name, config.fields),
        interfaces: () => config.interfaces.map((i) => named(i) as GraphQLInterfaceType),
        isTypeOf: undefined,
      });
    }
    built.set(type.name, made);
    return made;
  };

  const wrapped = (type: GraphQLType): GraphQLType => {
    if (isNonNullType(type)) return new GraphQLNonNull(wrapped(type.ofType));
    if (isListType(type)) return new GraphQLList(wrapped(type.ofType));
    return named(type);
  };

  function fieldsOf(typeName: string, fields: GraphQLFieldConfigMap<unknown, unknown>) {
    const kept = GATEWAY_FIELDS[typeName];
    const own = resolvers[typeName] ?? {};
    const result: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const [name, field] of Object.entries(fields)) {
      if (kept && !kept.includes(name)) continue;
      result[name] = {
        ...field,
        type: wrapped(field.type) as typeof field.type,
        // Never the service's resolver: it reads the service's own database.
        resolve: own[name],
        subscribe: own.__subscribe?.[name],
        extensions: {},
      };
    }
    return result;
  }

  const query = named(source.getQueryType()!) as GraphQLObjectType;
  const mutation = source.getMutationType();
  const subscription = source.getSubscriptionType();
  return new GraphQLSchema({
    query,
    mutation: mutation ? (named(mutation) as GraphQLObjectType) : undefined,
    directives: source.getDirectives(),
    subscription: subscription ? (named(subscription) as GraphQLObjectType) : undefined,
    // Implementations of a kept interface are reachable only through it (the live events' are not kept).
    types: Object.values(source.getTypeMap())
      .filter((type) => isObjectType(type) && type.getInterfaces().length > 0)
      .filter((type) => isObjectType(type) && !type.getInterfaces().some((i) => i.name === 'LiveEvent'))
      .filter((type) => !type.name.startsWith('__'))
      .map((type) => named(type)),
  });
}

const HEADER =
  '# The gateway mode schema (UPSTREAM_URL set): the part of schema.graphql the /v1 contract can feed.\n' +
  '# Emitted by `npm run schema:emit`; do not edit.\n\n';

/** The committed `schema.gateway.graphql` text (resolvers do not change what is printed). */
export function gatewaySchemaFileText(schema: GraphQLSchema = gatewaySchema()): string {
  return `${HEADER}${printWithDirectives(schema)}\n`;
}
