import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { IResolvers } from '@graphql-tools/utils';
import { getNamedType, isObjectType, Kind, type GraphQLResolveInfo } from 'graphql';
import { getArgumentValues } from 'graphql/execution/values';
import { DomainError } from '../kernel/errors';
import { camelCase, snakeCase } from '../kernel/names';
import { cases, type ViewOf } from '../contract/cases';
import { Pagination } from '../contract/envelope.contract';
import { Uuid } from '../contract/kit';
import type { GraphqlContext } from '../graphql/context';
import { envelopeOfAnswer, type Envelope, type UpstreamReads } from './upstream-reads';
import type { UpstreamAnswer } from './upstream.ports';
import type { ResourceWatch } from '../live/live.ports';

/** Gateway resolvers by type and field; a field without one reads the property of its name. */
export type GatewayResolvers = IResolvers<Record<string, unknown>, GraphqlContext>;

/**
 * Gateway mode's resolvers: each field reads the contract's answer that holds it, through the
 * request's `UpstreamReads` (one call per distinct GET), and answers it as the service's own
 * resolvers would: each record read into its view by its contract schema (`cases`), "Variable"
 * amounts as null with a flag, REST pages as `entries` and `pagination`. Instants are the
 * upstream's strings, offsets and all.
 */

/** Known by its id alone: its fields are the reads they make. */
const ById = Type.Object({ id: Uuid() });

/** What POST .../send_esignable_documents is answered with in GraphQL: the event it sent for. */
const EsignableDocumentsSent = Type.Object({ event_id: Uuid() });

/** A record's contract schema, whose answers have (at least) the fields `Fields`, in snake_case. */
type RecordSchema<Fields extends object = object> = TSchema & { static: Fields };

/**
 * The record of the contract whose `$id` is `id`, among `schemas` (every record the areas declare),
 * with the fields of it the resolvers below read (`fields`): one missing is refused when the
 * records are made, as a type the areas no longer declare would be.
 */
function recordOf<Fields extends object = object>(
  schemas: readonly TSchema[],
  id: string,
  ...fields: (keyof Fields & string)[]
): RecordSchema<Fields> {
  const schema = schemas.find((candidate) => candidate.$id === id);
  if (!schema)
    throw new Error(`${id}: gateway mode reads this record of the contract, and no area declares it`);
  for (const field of fields) {
    if (!(field in (schema.properties ?? {}))) throw new Error(`${id}: gateway mode reads its ${field}`);
  }
  return schema as RecordSchema<Fields>;
}

/** A record of an upstream answer in its view; the upstream answers the contract, as its schema says. */
function reader<Schema extends TSchema>(schema: Schema): (contract: unknown) => ViewOf<Schema> {
  const { toView } = cases(schema);
  return (contract) => toView(contract as Static<Schema>);
}

const readPagination = reader(Pagination);

/**
 * The contract's records gateway mode reads: each by its GraphQL type (`types`), and the reader of
 * each into its view (`read`).
 */
export interface GatewayRecords {
  /**
   * The records gateway mode answers, by GraphQL type: each is the view of its contract schema, and
   * its type (with the types of its nested objects) shows that view's fields and the fields the
   * resolvers below resolve on it, no others (`gatewaySchema`). A type named nowhere, here or below,
   * is answered whole: invoiceable items (their view and `amountIsVariable`), pages, fee groups.
   */
  readonly types: Readonly<Record<string, TSchema>>;
  readonly read: ReturnType<typeof readers>;
}

/** Each record's reader into its view. */
function readers(schemas: readonly TSchema[]) {
  const record = (id: string) => reader(recordOf(schemas, id));
  return {
    action: reader(
      recordOf<{ new_ledger_id: string; old_ledger_id: string }>(
        schemas,
        'RateAppliedAction',
        'new_ledger_id',
        'old_ledger_id',
      ),
    ),
    discount: record('LedgerDiscount'),
    document: record('EventDocument'),
    insurance: record('LedgerInsurance'),
    item: reader(recordOf<{ amount: unknown }>(schemas, 'InvoiceableItem', 'amount')),
    moveIn: record('MoveInReview'),
    note: record('NoteEvent'),
    payment: record('PaymentEvent'),
    rateChange: record('RateChangeUpdate'),
    service: record('LedgerService'),
  };
}

/**
 * The records gateway mode reads, found among the contract's (`schemas`: every record the areas
 * declare, each by its `$id`, which the composition root hands in) and made ready once.
 */
export function gatewayRecords(schemas: readonly TSchema[]): GatewayRecords {
  const record = (id: string) => recordOf(schemas, id);
  return {
    types: {
      Facility: ById,
      Company: ById,
      Event: ById,
      Ledger: ById,
      Document: record('EventDocument'),
      LedgerInsurance: record('LedgerInsurance'),
      LedgerService: record('LedgerService'),
      LedgerDiscount: record('LedgerDiscount'),
      MoveInReview: record('MoveInReview'),
      NoteEvent: record('NoteEvent'),
      RateAppliedAction: record('RateAppliedAction'),
      RateChangeUpdate: record('RateChangeUpdate'),
      SendEsignableDocumentsPayload: EsignableDocumentsSent,
      SuccessfulPaymentEvent: record('PaymentEvent'),
    },
    read: readers(schemas),
  };
}

type Read = GatewayRecords['read'];
type Args = Record<string, unknown>;
type ById = ViewOf<typeof ById>;
type ActionView = ReturnType<Read['action']> & { facilityId: string };
type LedgerOf = ById & { facilityId: string };
/** An event of the facility; a subscription's event also carries the first page its poller read. */
type EventOf = LedgerOf & { polledDocuments?: Envelope };

/** A field's resolver: its parent's value is what the resolver above it answered. */
type Resolver<Parent, A = Args> = (
  parent: Parent,
  args: A,
  ctx: GraphqlContext,
  info: GraphQLResolveInfo,
) => unknown;

const reads = (ctx: GraphqlContext): UpstreamReads => {
  if (!ctx.upstream) throw new Error('a gateway resolver ran outside gateway mode');
  return ctx.upstream;
};

/** An item as the InvoiceableItem interface answers it: REST's "Variable" amount as null with a flag. */
const itemView = (read: Read) => (contract: unknown) => {
  const item = read.item(contract);
  const variable = item.amount === 'Variable';
  return { ...item, amount: variable ? null : item.amount, amountIsVariable: variable };
};

/** A REST page (its entries under `key`, `meta.pagination`) as a GraphQL page. */
function page<View>(envelope: Envelope, key: string, entry: (contract: unknown) => View) {
  return {
    entries: (envelope[key] as unknown[]).map(entry),
    pagination: readPagination(envelope.meta.pagination),
  };
}

/** A value of an answer that is a record, a list of them, or null, read by `entry`. */
const each = <View>(value: unknown, entry: (contract: unknown) => View) =>
  Array.isArray(value) ? value.map(entry) : value == null ? null : entry(value);

/** Arguments as the contract's query: each given one under its snake_case name. */
const queryOf = (args: Args): Record<string, string | number | undefined> =>
  Object.fromEntries(
    Object.entries(args).map(([name, value]) => [snakeCase(name), value as string | number]),
  );

/** An input as a body of the contract: its given fields (null ones left out) under their snake_case names. */
function bodyOf(input: Args, names: Record<string, string> = {}): Args {
  const body: Args = {};
  for (const [key, value] of Object.entries(input))
    if (value != null) body[names[key] ?? snakeCase(key)] = value;
  return body;
}

const ITEM_TYPES: Record<string, string> = {
  fee: 'FeeItem',
  insurance: 'InsuranceItem',
  service: 'ServiceItem',
  retail: 'RetailItem',
};

const ITEM_PATHS: Record<string, string> = {
  all: '',
  insurance: '/insurance',
  services: '/services',
  retail: '/retail',
  rental_center: '/rental_center',
};

const facilityPath = (id: string) => `/v1/${encodeURIComponent(id)}`;

/** A GET of the contract: its path and query. */
type ReadOf = [path: string, query: Record<string, string | number | undefined>];

/**
 * The facility's fields that read a page of the facility (each answers 404 or 403 for an unknown
 * or another company's facility), by the read they make, so the facility can ask with one of them.
 */
const FACILITY_READS: Record<string, (facilityId: string, args: Args) => ReadOf> = {
  flippers: (id) => [`${facilityPath(id)}/flippers`, {}],
  rateAppliedActions: (id, args) => [`${facilityPath(id)}/rate_applied_actions`, queryOf(args)],
  invoiceableItems: (id, { list, ...paging }) => [
    `${facilityPath(id)}/invoiceable_items${ITEM_PATHS[(list as string | undefined) ?? 'all']}`,
    queryOf(paging),
  ],
  invoiceableItemFees: (id) => [`${facilityPath(id)}/invoiceable_items/fees`, {}],
};

/** The read of the first field selected on the facility that makes one, with its arguments. */
function firstFacilityRead(id: string, info: GraphQLResolveInfo): ReadOf | null {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return null;
  for (const node of info.fieldNodes) {
    for (const selection of node.selectionSet?.selections ?? []) {
      if (selection.kind !== Kind.FIELD || (selection.directives?.length ?? 0) > 0) continue;
      const read = FACILITY_READS[selection.name.value];
      const field = type.getFields()[selection.name.value];
      if (read && field) return read(id, getArgumentValues(field, selection, info.variableValues));
    }
  }
  return null;
}

const facility: Resolver<unknown, { id: string }> = async (_root, { id }, ctx, info): Promise<ById> => {
  // Whether the facility is there and the caller's: asked with a read one of its fields needs
  // anyway (the request's reads are shared), else with the flipper list, the lightest.
  const probe = firstFacilityRead(id, info);
  try {
    await reads(ctx).get(...(probe ?? FACILITY_READS.flippers(id, {})));
  } catch (error) {
    // Another refusal (a page out of range, say) is the field's own, answered at its path.
    const kind = error instanceof DomainError ? error.kind : null;
    if (!probe || kind === 'not_found' || kind === 'forbidden') throw error;
  }
  return { id };
};

const company: Resolver<unknown, { id: string }> = (_root, { id }): ById => ({ id });

const rateAppliedActions =
  (read: Read): Resolver<ById> =>
  async (facility, args, ctx): Promise<ActionView[]> => {
    const answer = await reads(ctx).get(...FACILITY_READS.rateAppliedActions(facility.id, args));
    return (answer.rate_applied_actions as unknown[]).map((action) => ({
      ...read.action(action),
      facilityId: facility.id,
    }));
  };

/** A ledger reached from a rate applied action: its three lists come from one read. */
const ledgerOf =
  (key: 'newLedgerId' | 'oldLedgerId'): Resolver<ActionView> =>
  (action): LedgerOf | null =>
    action[key] !== '' ? { id: action[key], facilityId: action.facilityId } : null;

const ledgerPart =
  <View>(
    key: 'insurance' | 'services' | 'discounts',
    entry: (contract: unknown) => View,
  ): Resolver<LedgerOf> =>
  async (ledger, _args, ctx) => {
    const answer = await reads(ctx).get(
      `${facilityPath(ledger.facilityId)}/ledgers/${encodeURIComponent(ledger.id)}/insurance_services_and_discounts`,
    );
    return each(answer[key], entry);
  };

const invoiceableItems =
  (read: Read): Resolver<ById> =>
  async (facility, args, ctx) =>
    page(
      await reads(ctx).get(...FACILITY_READS.invoiceableItems(facility.id, args)),
      'invoiceable_items',
      itemView(read),
    );

/** The fee groups, each an item, null or a list of items, under their names in camelCase. */
const invoiceableItemFees =
  (read: Read): Resolver<ById> =>
  async (facility, _args, ctx) => {
    const answer = await reads(ctx).get(...FACILITY_READS.invoiceableItemFees(facility.id, {}));
    const groups = Object.entries(answer.fees as Args);
    return Object.fromEntries(
      groups.map(([group, items]) => [camelCase(group), each(items, itemView(read))]),
    );
  };

const rateChangeUpdates =
  (read: Read): Resolver<ById> =>
  async (company, args, ctx) => {
    const path = `/v1/companies/${encodeURIComponent(company.id)}/rate_change_updates`;
    return page(await reads(ctx).get(path, queryOf(args)), 'rate_change_updates', read.rateChange);
  };

const eventDocumentsPath = (facilityId: string, eventId: string) =>
  `${facilityPath(facilityId)}/events/${encodeURIComponent(eventId)}/documents`;

const eventDocuments =
  (read: Read): Resolver<EventOf> =>
  async (event, args, ctx) => {
    // A subscription's event carries the first page its poller read.
    const polled = event.polledDocuments;
    if (polled && args.page === undefined && args.perPage === undefined)
      return page(polled, 'documents', read.document);
    const answer = await reads(ctx).get(eventDocumentsPath(event.facilityId, event.id), queryOf(args));
    return page(answer, 'documents', read.document);
  };

const createNote =
  (read: Read): Resolver<unknown, { facilityId: string; input: Args }> =>
  async (_root, args, ctx) => {
    const { userId, ...note } = args.input;
    const body = { note: bodyOf(note), ...bodyOf({ userId }) };
    return read.note((await reads(ctx).post(`${facilityPath(args.facilityId)}/notes`, body)).note_event);
  };

const reviewMoveInCost =
  (read: Read): Resolver<unknown, { facilityId: string; input: Args }> =>
  async (_root, args, ctx) => {
    const path = `${facilityPath(args.facilityId)}/move_ins/review_cost`;
    return read.moveIn((await reads(ctx).post(path, { move_in: bodyOf(args.input) })).move_in);
  };

const sendEsignableDocuments: Resolver<unknown, { facilityId: string; eventId: string } & Args> = async (
  _root,
  { facilityId, eventId, email, smsNumber },
  ctx,
): Promise<ViewOf<typeof EsignableDocumentsSent>> => {
  const path = `${facilityPath(facilityId)}/documents/${encodeURIComponent(eventId)}/send_esignable_documents`;
  await reads(ctx).post(path, bodyOf({ email, smsNumber }));
  return { eventId };
};

const payRetail =
  (
    read: Read,
  ): Resolver<
    unknown,
    {
      facilityId: string;
      idempotencyKey?: string | null;
      input: { invoiceableItems: Args[]; paymentMethod: Args; tenantId?: string | null };
    }
  > =>
  async (_root, { facilityId, idempotencyKey, input }, ctx) => {
    const { invoiceableItems: lines, paymentMethod, ...retail } = input;
    const body = {
      retail_payment: { invoiceable_items: lines.map((line) => bodyOf(line)), ...bodyOf(retail) },
      // The billing address under its REST name.
      payment_method: bodyOf(paymentMethod, { billingAddress: 'billing_address_attributes' }),
    };
    const path = `${facilityPath(facilityId)}/invoiceable_items/retail_payment`;
    const answer = await reads(ctx).post(path, body, idempotencyKey ?? undefined);
    return read.payment(answer.successful_payment_event);
  };

const flippers: Resolver<ById> = async (facility, _args, ctx) =>
  (await reads(ctx).get(...FACILITY_READS.flippers(facility.id, {}))).flippers;

const flipper: Resolver<ById, { name: string }> = async (facility, { name }, ctx) => {
  const answer = await reads(ctx).get(`${facilityPath(facility.id)}/flippers/${encodeURIComponent(name)}`);
  return answer[name] === true;
};

/** An event of the facility: its documents say whether it is there. */
const event: Resolver<ById, { id: string }> = (facility, { id }): EventOf => ({
  id,
  facilityId: facility.id,
});

/**
 * Subscription.eventDocuments in gateway mode: the upstream's GET of the event's documents, read
 * once (an unknown or foreign event is refused before anything streams), then watched by the one
 * poller of that resource (conditional GETs every UPSTREAM_POLL_MS).
 */
const watchEventDocuments =
  (pollers: ResourceWatch | undefined): Resolver<unknown, { facilityId: string; eventId: string }> =>
  async (_root, { facilityId, eventId }, ctx) => {
    if (!pollers) throw new Error('this gateway schema was made without the upstream pollers');
    const path = eventDocumentsPath(facilityId, eventId);
    await reads(ctx).get(path);
    return pollers.watch({ companyId: ctx.caller.companyId, clientId: ctx.caller.clientId, path });
  };

const eventDocumentsUpdate: Resolver<UpstreamAnswer, { facilityId: string; eventId: string }> = (
  answer,
  args,
): EventOf => ({
  id: args.eventId,
  facilityId: args.facilityId,
  polledDocuments: envelopeOfAnswer(answer),
});

/**
 * Gateway mode's resolvers, reading the contract's `records`; its subscription watches the upstream
 * through these pollers (a schema made without them serves no subscription: it is for printing and
 * checking documents).
 */
export function gatewayResolvers(records: GatewayRecords, pollers?: ResourceWatch): GatewayResolvers {
  const { read } = records;
  return {
    Subscription: {
      eventDocuments: { subscribe: watchEventDocuments(pollers), resolve: eventDocumentsUpdate },
    },
    Query: { facility, company },
    Mutation: {
      createNote: createNote(read),
      reviewMoveInCost: reviewMoveInCost(read),
      payRetail: payRetail(read),
      sendEsignableDocuments,
    },
    Facility: {
      flippers,
      flipper,
      rateAppliedActions: rateAppliedActions(read),
      invoiceableItems: invoiceableItems(read),
      invoiceableItemFees: invoiceableItemFees(read),
      event,
    },
    Company: { rateChangeUpdates: rateChangeUpdates(read) },
    Event: { documents: eventDocuments(read) },
    RateAppliedAction: { newLedger: ledgerOf('newLedgerId'), oldLedger: ledgerOf('oldLedgerId') },
    Ledger: {
      insurance: ledgerPart('insurance', read.insurance),
      services: ledgerPart('services', read.service),
      discounts: ledgerPart('discounts', read.discount),
    },
    InvoiceableItem: { __resolveType: (item: { kind: string }) => ITEM_TYPES[item.kind] },
  };
}
