import {
  getNamedType,
  isObjectType,
  Kind,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values';
import { DomainError } from '../kernel/errors';
import type { GraphqlContext } from '../graphql/context';
import type { GatewayResolvers } from './gateway-schema';
import { envelopeOfAnswer, type Envelope, type UpstreamReads } from './upstream-reads';
import type { UpstreamAnswer } from './upstream.ports';
import type { ResourceWatch } from '../areas/live/live.types';

/**
 * Gateway mode's resolvers: each field reads the contract's answer that holds it, through the
 * request's `UpstreamReads` (one call per distinct GET), and answers it as the service's own
 * resolvers would: camelCase names, "Variable" amounts as null with a flag, REST pages as
 * `entries` and `pagination`. Instants are the upstream's strings, offsets and all.
 */

type Resolver<Args = Record<string, unknown>> = GraphQLFieldResolver<
  Record<string, unknown>,
  GraphqlContext,
  Args
>;

const reads = (ctx: GraphqlContext): UpstreamReads => {
  if (!ctx.upstream) throw new Error('a gateway resolver ran outside gateway mode');
  return ctx.upstream;
};

/** Snake-case keys as camelCase, at every depth. */
export function camelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()),
      camelize(v),
    ]),
  );
}

/** An item of REST 2.7 as the InvoiceableItem interface answers it. */
function item(rest: unknown): Record<string, unknown> {
  const camel = camelize(rest) as Record<string, unknown>;
  return {
    ...camel,
    amount: camel.amount === 'Variable' ? null : camel.amount,
    amountIsVariable: camel.amount === 'Variable',
  };
}

/** A REST page as a GraphQL page. */
function page(envelope: Envelope, key: string, map: (entry: unknown) => unknown = camelize) {
  return {
    entries: (envelope[key] as unknown[]).map(map),
    pagination: camelize(envelope.meta.pagination),
  };
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

const facilityPath = (facility: Record<string, unknown>) => `/v1/${encodeURIComponent(String(facility.id))}`;

/** A GET of the contract: its path and query. */
type ReadOf = [path: string, query: Record<string, string | number | undefined>];

/**
 * The facility's fields that read a page of the facility (each answers 404 or 403 for an unknown
 * or another company's facility), by the read they make, so the facility can ask with one of them.
 */
const FACILITY_READS: Record<string, (facilityId: string, args: Record<string, unknown>) => ReadOf> = {
  flippers: (id) => [`/v1/${encodeURIComponent(id)}/flippers`, {}],
  rateAppliedActions: (id, args) => [
    `/v1/${encodeURIComponent(id)}/rate_applied_actions`,
    { start_date: args.startDate as string | undefined, end_date: args.endDate as string | undefined },
  ],
  invoiceableItems: (id, args) => [
    `/v1/${encodeURIComponent(id)}/invoiceable_items${ITEM_PATHS[(args.list as string | undefined) ?? 'all']}`,
    { page: args.page as number | undefined, per_page: args.perPage as number | undefined },
  ],
  invoiceableItemFees: (id) => [`/v1/${encodeURIComponent(id)}/invoiceable_items/fees`, {}],
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

const facility: Resolver<{ id: string }> = async (_root, { id }, ctx, info) => {
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

const company: Resolver<{ id: string }> = (_root, { id }) => ({ id });

const rateAppliedActions: Resolver<{ startDate?: string; endDate?: string }> = async (root, args, ctx) => {
  const answer = await reads(ctx).get(...FACILITY_READS.rateAppliedActions(String(root.id), args));
  return (answer.rate_applied_actions as unknown[]).map((action) => ({
    ...(camelize(action) as Record<string, unknown>),
    facilityId: root.id,
  }));
};

/** A ledger reached from a rate applied action: its three lists come from one read. */
const ledgerOf =
  (key: 'newLedgerId' | 'oldLedgerId'): Resolver =>
  (action) => {
    const id = action[key];
    return typeof id === 'string' && id !== '' ? { id, facilityId: action.facilityId } : null;
  };

const ledgerRead = (ledger: Record<string, unknown>, ctx: GraphqlContext) =>
  reads(ctx).get(
    `/v1/${encodeURIComponent(String(ledger.facilityId))}/ledgers/${encodeURIComponent(String(ledger.id))}/insurance_services_and_discounts`,
  );

const ledgerPart =
  (key: 'insurance' | 'services' | 'discounts'): Resolver =>
  async (ledger, _args, ctx) =>
    camelize((await ledgerRead(ledger, ctx))[key]);

const invoiceableItems: Resolver<{ list?: string; page?: number; perPage?: number }> = async (
  root,
  args,
  ctx,
) => {
  const answer = await reads(ctx).get(...FACILITY_READS.invoiceableItems(String(root.id), args));
  return page(answer, 'invoiceable_items', item);
};

const invoiceableItemFees: Resolver = async (root, _args, ctx) => {
  const fees = (await reads(ctx).get(...FACILITY_READS.invoiceableItemFees(String(root.id), {})))
    .fees as Record<string, unknown>;
  const one = (value: unknown) => (value === null ? null : item(value));
  return {
    securityDeposit: one(fees.security_deposit),
    onlinePayment: one(fees.online_payment),
    reservation: one(fees.reservation),
    moveInFees: (fees.move_in_fees as unknown[]).map(item),
    transferFees: (fees.transfer_fees as unknown[]).map(item),
    other: (fees.other as unknown[]).map(item),
  };
};

const rateChangeUpdates: Resolver<{
  updatedAfter: string;
  updatedBefore: string;
  page?: number;
  perPage?: number;
  createdBy?: number;
}> = async (root, args, ctx) => {
  const answer = await reads(ctx).get(
    `/v1/companies/${encodeURIComponent(String(root.id))}/rate_change_updates`,
    {
      updated_after: args.updatedAfter,
      updated_before: args.updatedBefore,
      page: args.page,
      per_page: args.perPage,
      created_by: args.createdBy,
    },
  );
  return page(answer, 'rate_change_updates');
};

const eventDocuments: Resolver<{ page?: number; perPage?: number }> = async (event, args, ctx) => {
  // A subscription's event carries the first page its poller read.
  const polled = event.polledDocuments as Envelope | undefined;
  if (polled && args.page === undefined && args.perPage === undefined) return page(polled, 'documents');
  const answer = await reads(ctx).get(
    `/v1/${encodeURIComponent(String(event.facilityId))}/events/${encodeURIComponent(String(event.id))}/documents`,
    { page: args.page, per_page: args.perPage },
  );
  return page(answer, 'documents');
};

const createNote: Resolver<{
  facilityId: string;
  input: { noteText: string; tenantId?: string; unitId?: string; ledgerId?: string; userId?: string };
}> = async (_root, { facilityId, input }, ctx) => {
  const note: Record<string, string> = { note_text: input.noteText };
  if (input.tenantId != null) note.tenant_id = input.tenantId;
  if (input.unitId != null) note.unit_id = input.unitId;
  if (input.ledgerId != null) note.ledger_id = input.ledgerId;
  const body = { note, ...(input.userId != null ? { user_id: input.userId } : {}) };
  const answer = await reads(ctx).post(`/v1/${encodeURIComponent(facilityId)}/notes`, body);
  return camelize(answer.note_event);
};

const reviewMoveInCost: Resolver<{
  facilityId: string;
  input: { unitId: string; tenantId?: string; moveInDate?: string };
}> = async (_root, { facilityId, input }, ctx) => {
  const moveIn: Record<string, string> = { unit_id: input.unitId };
  if (input.tenantId != null) moveIn.tenant_id = input.tenantId;
  if (input.moveInDate != null) moveIn.move_in_date = input.moveInDate;
  const answer = await reads(ctx).post(`/v1/${encodeURIComponent(facilityId)}/move_ins/review_cost`, {
    move_in: moveIn,
  });
  return camelize(answer.move_in);
};

const sendEsignableDocuments: Resolver<{
  facilityId: string;
  eventId: string;
  email?: string | null;
  smsNumber?: string | null;
}> = async (_root, { facilityId, eventId, email, smsNumber }, ctx) => {
  const body: Record<string, string> = {};
  if (email != null) body.email = email;
  if (smsNumber != null) body.sms_number = smsNumber;
  await reads(ctx).post(
    `/v1/${encodeURIComponent(facilityId)}/documents/${encodeURIComponent(eventId)}/send_esignable_documents`,
    body,
  );
  return { eventId };
};

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A payment method input as the contract's `payment_method` (its billing address under its REST name). */
function paymentMethodBody(input: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    body[key === 'billingAddress' ? 'billing_address_attributes' : snake(key)] = value;
  }
  return body;
}

const payRetail: Resolver<{
  facilityId: string;
  idempotencyKey?: string | null;
  input: {
    tenantId?: string | null;
    invoiceableItems: Array<{ invoiceableItemId: string; quantity: number }>;
    paymentMethod: Record<string, unknown>;
  };
}> = async (_root, { facilityId, idempotencyKey, input }, ctx) => {
  const retail: Record<string, unknown> = {
    invoiceable_items: input.invoiceableItems.map((line) => ({
      invoiceable_item_id: line.invoiceableItemId,
      quantity: line.quantity,
    })),
  };
  if (input.tenantId != null) retail.tenant_id = input.tenantId;
  const answer = await reads(ctx).post(
    `/v1/${encodeURIComponent(facilityId)}/invoiceable_items/retail_payment`,
    { retail_payment: retail, payment_method: paymentMethodBody(input.paymentMethod) },
    idempotencyKey ?? undefined,
  );
  return camelize(answer.successful_payment_event);
};

const flippers: Resolver = async (root, _args, ctx) =>
  (await reads(ctx).get(...FACILITY_READS.flippers(String(root.id), {}))).flippers;

const flipper: Resolver<{ name: string }> = async (root, { name }, ctx) => {
  const answer = await reads(ctx).get(`${facilityPath(root)}/flippers/${encodeURIComponent(name)}`);
  return answer[name] === true;
};

/** An event of the facility: its documents say whether it is there. */
const event: Resolver<{ id: string }> = (root, { id }) => ({ id, facilityId: root.id });

const eventDocumentsPath = (facilityId: string, eventId: string) =>
  `/v1/${encodeURIComponent(facilityId)}/events/${encodeURIComponent(eventId)}/documents`;

/**
 * Subscription.eventDocuments in gateway mode: the upstream's GET of the event's documents, read
 * once (an unknown or foreign event is refused before anything streams), then watched by the one
 * poller of that resource (conditional GETs every UPSTREAM_POLL_MS).
 */
const watchEventDocuments =
  (pollers: ResourceWatch): Resolver<{ facilityId: string; eventId: string }> =>
  async (_root, { facilityId, eventId }, ctx) => {
    const path = eventDocumentsPath(facilityId, eventId);
    await reads(ctx).get(path);
    return pollers.watch({ companyId: ctx.caller.companyId, clientId: ctx.caller.clientId, path });
  };

const eventDocumentsUpdate = (answer: UpstreamAnswer, args: { facilityId: string; eventId: string }) => ({
  id: args.eventId,
  facilityId: args.facilityId,
  polledDocuments: envelopeOfAnswer(answer),
});

/** Gateway mode's resolvers; its subscription watches the upstream through these pollers. */
export function gatewayResolvers(pollers: ResourceWatch): GatewayResolvers {
  return {
    Subscription: {
      eventDocuments: eventDocumentsUpdate,
      __subscribe: { eventDocuments: watchEventDocuments(pollers) },
    },
    Query: { facility, company },
    Mutation: { createNote, reviewMoveInCost, payRetail, sendEsignableDocuments },
    Facility: { flippers, flipper, rateAppliedActions, invoiceableItems, invoiceableItemFees, event },
    Company: { rateChangeUpdates },
    Event: { documents: eventDocuments },
    RateAppliedAction: { newLedger: ledgerOf('newLedgerId'), oldLedger: ledgerOf('oldLedgerId') },
    Ledger: {
      insurance: ledgerPart('insurance'),
      services: ledgerPart('services'),
      discounts: ledgerPart('discounts'),
    },
    InvoiceableItem: { __resolveType: (value: { kind: string }) => ITEM_TYPES[value.kind] },
  } as unknown as GatewayResolvers;
}
