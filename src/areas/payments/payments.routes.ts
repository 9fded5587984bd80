import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as PaymentEventContract from './payment-event.contract';
import { Nullable, RefTo } from '../../contract/kit';
import { DomainError, problem, type Problem } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import { readIdempotencyKey } from './idempotency';
import type { PaymentIdempotency } from './payments.service';
import type { PaymentEvent, PayRetailCommand, RetailLineCommand } from './payments.types';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { okBody } from '../../rest/envelope';
import { jsonResponses } from '../../rest/responses';
import { facilityParams } from '../../rest/schemas';
import type { PaymentsService } from './payments.service';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly payments: PaymentsService;
}

type Amount = string | number | null;

const text = (description: string) => Type.Optional(Nullable(Type.String({ description })));
// Numbers or strings: the payments service reads both and names the parameter when neither fits.
const numberOrText = (description: string) => Type.Optional(Type.Unknown({ description }));

const paymentMethodSchema = Type.Object(
  {
    payment_method_id: text(
      'A saved (reuseable) method of this facility, and of the tenant when one is given',
    ),
    first_name: text('Required for a new method'),
    last_name: text('Required for a new method'),
    kind: text('credit_card (creditcard), card_swipe (cardswipe), ach, check, cash or money_order'),
    reuseable: Type.Optional(
      Type.Unknown({ description: 'true to save the method (cards and ACH only): brand, last four, expiry' }),
    ),
    magnetic_track: text('card_swipe: track 1 (%B...^...^...?) and/or track 2 (;...=...?)'),
    card_number: text('credit_card: 12-19 digits, Luhn-valid, of card_type'),
    card_type: text('credit_card: visa, mastercard, american_express, diners, discover or jcb'),
    security_code: text('credit_card: 4 digits for American Express, 3 for the others'),
    expiration_date: text('credit_card: MM/YY, not in the past'),
    account_number: text('ach: 4-17 digits'),
    account_number_confirmation: text('ach: equal to account_number'),
    account_type: text('ach: checking or savings'),
    bank_name: text('ach'),
    routing_number: text('ach: 9 digits with a valid ABA checksum'),
    billing_address_attributes: Type.Optional(
      Nullable(
        Type.Object(
          {
            company: text('Company'),
            address1: text('Address line 1'),
            address2: text('Address line 2'),
            city: text('City'),
            state: text('State'),
            postal: text('Postal code'),
          },
          { description: 'Required for a new method; every field optional' },
        ),
      ),
    ),
    billing_postal: text('Postal code, when the address has none'),
    check_number: text('check: 1-15 digits'),
    name_on_check: text('check'),
    check_amount: numberOrText('check: equal to the charge'),
    reference_number: text('money_order'),
    money_order_amount: numberOrText('money_order: equal to the charge'),
    amount_tendered: numberOrText('cash: at least the charge; the rest is change_due'),
  },
  { description: 'An existing method (payment_method_id) or the fields of a new one' },
);

// Types only, for the OpenAPI document; the payments service checks every rule.
const retailPaymentBody = Type.Object({
  retail_payment: Type.Optional(
    Nullable(
      Type.Object({
        tenant_id: text('Tenant to associate the invoice with'),
        invoiceable_items: Type.Optional(
          Nullable(
            Type.Array(
              Type.Object({
                invoiceable_item_id: text('A retail item of this facility'),
                quantity: numberOrText('A whole number from 1 to 1000'),
              }),
            ),
          ),
        ),
      }),
    ),
  ),
  payment_method: Type.Optional(Nullable(paymentMethodSchema)),
});
type RetailPaymentBody = Static<typeof retailPaymentBody>;
type PaymentMethodBody = Static<typeof paymentMethodSchema>;

/** REST's names of the payment command's fields (the rest are theirs in snake_case). */
const PAYMENT_NAMES = {
  tenantId: 'retail_payment.tenant_id',
  invoiceableItems: 'retail_payment.invoiceable_items',
  billingAddress: 'billing_address_attributes',
  idempotencyKey: 'Idempotency-Key',
};

const blank = (value: unknown) => value === undefined || value === null || value === '';

/** A value the body's schema leaves open (amounts, quantities, reuseable), checked for its type here. */
function scalar<T extends 'amount' | 'quantity' | 'flag'>(
  kind: T,
  raw: unknown,
  name: string,
  problems: Problem[],
): (T extends 'flag' ? boolean | string : string | number) | null | undefined {
  if (raw === undefined || raw === null) return raw;
  const fits =
    kind === 'flag'
      ? typeof raw === 'boolean' || typeof raw === 'string'
      : typeof raw === 'string' || typeof raw === 'number';
  if (fits) return raw as T extends 'flag' ? boolean | string : string | number;
  const message =
    kind === 'amount'
      ? 'must be an amount (a number or a decimal string)'
      : kind === 'quantity'
        ? 'must be a whole number (a number or a string of digits)'
        : 'must be true or false';
  problems.push(problem([name], message));
  return undefined;
}

/** The body as a command: both objects must be there; the schema has checked every other type. */
function paymentCommand(body: RetailPaymentBody): PayRetailCommand {
  const problems: Problem[] = [];
  if (blank(body.retail_payment)) problems.push(problem(['retail_payment'], 'is required'));
  if (blank(body.payment_method)) problems.push(problem(['payment_method'], 'is required'));
  const retail = body.retail_payment ?? {};
  const method: PaymentMethodBody = body.payment_method ?? {};
  const lines: RetailLineCommand[] | null | undefined = retail.invoiceable_items?.map((line, index) => ({
    invoiceableItemId: line.invoiceable_item_id,
    quantity: scalar(
      'quantity',
      line.quantity,
      `retail_payment.invoiceable_items[${index}].quantity`,
      problems,
    ),
  }));
  const text = <Key extends keyof PaymentMethodBody>(key: Key) => method[key];
  const amount = (key: 'check_amount' | 'money_order_amount' | 'amount_tendered') =>
    scalar('amount', method[key], `payment_method.${key}`, problems) as Amount | undefined;
  const command: PayRetailCommand = {
    tenantId: retail.tenant_id,
    invoiceableItems: retail.invoiceable_items === null ? null : lines,
    paymentMethod: {
      paymentMethodId: text('payment_method_id'),
      firstName: text('first_name'),
      lastName: text('last_name'),
      kind: text('kind'),
      reuseable: scalar('flag', method.reuseable, 'payment_method.reuseable', problems),
      cardNumber: text('card_number'),
      cardType: text('card_type'),
      securityCode: text('security_code'),
      expirationDate: text('expiration_date'),
      magneticTrack: text('magnetic_track'),
      accountNumber: text('account_number'),
      accountNumberConfirmation: text('account_number_confirmation'),
      accountType: text('account_type'),
      bankName: text('bank_name'),
      routingNumber: text('routing_number'),
      billingAddress: method.billing_address_attributes,
      billingPostal: text('billing_postal'),
      checkNumber: text('check_number'),
      nameOnCheck: text('name_on_check'),
      checkAmount: amount('check_amount'),
      referenceNumber: text('reference_number'),
      moneyOrderAmount: amount('money_order_amount'),
      amountTendered: amount('amount_tendered'),
    },
  };
  if (problems.length > 0) throw DomainError.invalid(problems);
  return command;
}

/** The contract's routes of this area (see ContractRoute). */
export const PAYMENT_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'POST',
    '/v1/:facility_id/invoiceable_items/retail_payment',
    {
      config: { names: PAYMENT_NAMES },
      schema: {
        summary: 'Pay for retail items (once per Idempotency-Key)',
        tags: ['invoiceable items'],
        operationId: 'payRetailItems',
        response: jsonResponses(
          'The payment event (a replay answers the first answer, with Idempotent-Replayed: true)',
          { successful_payment_event: RefTo(PaymentEventContract.schema) },
        ),
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: facilityParams,
        headers: Type.Object({
          'idempotency-key': Type.Optional(
            Type.String({
              description: 'Makes a retry with the same body answer the first answer, charging once (24 h)',
            }),
          ),
        }),
        body: retailPaymentBody,
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const caller = request.caller!;
      const facility = request.facility;
      const key = readIdempotencyKey(request.headers['idempotency-key']);
      // The answer is kept byte for byte with the key, in the payment's transaction.
      const answer = (event: PaymentEvent): string => paymentBody(request, facility, event);
      const idempotency: PaymentIdempotency | undefined = key ? { key, scope: 'rest', answer } : undefined;
      const outcome = await services.payments.payRetail(
        facility,
        caller,
        paymentCommand(request.body ?? {}),
        {
          idempotency,
        },
      );
      if (!outcome.replayed) return sendJson(reply, answer(outcome.event));
      reply.header('Idempotent-Replayed', 'true');
      if (outcome.answer !== null) return sendJson(reply, outcome.answer);
      // A key kept without its answer (by an earlier version): answer its payment anew.
      const [event] = outcome.paymentEventId
        ? await services.payments.paymentsByIds([outcome.paymentEventId])
        : [null];
      if (!event) throw new Error('the payment of an Idempotency-Key is missing');
      return sendJson(reply, answer(event));
    },
  ),
];

function paymentBody(request: FastifyRequest, facility: Facility, event: PaymentEvent): string {
  const data = { successful_payment_event: PaymentEventContract.toContract(event, facility.timeZone) };
  return JSON.stringify(okBody(request, data));
}

function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send(body);
}
