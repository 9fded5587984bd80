import type { FastifyInstance } from 'fastify';
import { maskedNumber } from '../domain/payments/cards';
import { readIdempotencyKey, requestFingerprint } from '../domain/payments/idempotency';
import type { PaymentIdempotency } from '../domain/payments/payments.service';
import type { PaymentEvent } from '../domain/payments/payments.types';
import { centsToAmount } from '../domain/shared/money';
import { formatInstant } from '../domain/shared/time';
import type { Services } from '../services';
import { okBody, sendOk } from './envelope';
import { facilityIdParam } from './schemas';

interface FacilityParams {
  facility_id: string;
}

interface RetailPaymentBody {
  retail_payment?: unknown;
  payment_method?: unknown;
}

const CARD_KINDS = new Set(['credit_card', 'card_swipe']);

/**
 * Contract 2.8: the card as asterisks and its last four digits, brand, expiry and billing address
 * (null for methods that are not cards). `change_due` is ours: what cash tendered above the charge.
 */
export function serializePaymentEvent(event: PaymentEvent, timeZone: string) {
  const method = event.paymentMethod;
  const card = CARD_KINDS.has(method.kind);
  return {
    id: event.id,
    amount: centsToAmount(event.amountCents),
    success: event.success,
    date: formatInstant(event.paidAt, timeZone),
    payment_method: {
      id: method.id,
      kind: method.kind,
      first_name: method.firstName,
      last_name: method.lastName,
      reuseable: method.reuseable,
      card_number: card && method.last4 ? maskedNumber(method.last4) : null,
      card_type: card ? method.cardType : null,
      expiration_date: card ? method.expirationDate : null,
      billing_address: method.billingAddress,
    },
    change_due: centsToAmount(event.changeDueCents),
  };
}

const text = (description: string) => ({ type: 'string', nullable: true, description }) as const;
// Numbers or strings: the payments service reads both and names the parameter when neither fits.
const numberOrText = (description: string) => ({ description }) as const;

const paymentMethodSchema = {
  type: 'object',
  description: 'An existing method (payment_method_id) or the fields of a new one',
  properties: {
    payment_method_id: text(
      'A saved (reuseable) method of this facility, and of the tenant when one is given',
    ),
    first_name: text('Required for a new method'),
    last_name: text('Required for a new method'),
    kind: text('credit_card (creditcard), card_swipe (cardswipe), ach, check, cash or money_order'),
    reuseable: { description: 'true to save the method (cards and ACH only): brand, last four, expiry' },
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
    billing_address_attributes: {
      type: 'object',
      nullable: true,
      description: 'Required for a new method; every field optional',
      properties: {
        company: text('Company'),
        address1: text('Address line 1'),
        address2: text('Address line 2'),
        city: text('City'),
        state: text('State'),
        postal: text('Postal code'),
      },
    },
    billing_postal: text('Postal code, when the address has none'),
    check_number: text('check: 1-15 digits'),
    name_on_check: text('check'),
    check_amount: numberOrText('check: equal to the charge'),
    reference_number: text('money_order'),
    money_order_amount: numberOrText('money_order: equal to the charge'),
    amount_tendered: numberOrText('cash: at least the charge; the rest is change_due'),
  },
} as const;

export function registerPaymentRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Params: FacilityParams; Body: RetailPaymentBody }>(
    '/v1/:facility_id/invoiceable_items/retail_payment',
    {
      schema: {
        summary: 'Pay for retail items (once per Idempotency-Key)',
        tags: ['invoiceable items'],
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: { type: 'object', properties: { facility_id: facilityIdParam }, required: ['facility_id'] },
        headers: {
          type: 'object',
          properties: {
            'idempotency-key': {
              type: 'string',
              description: 'Makes a retry with the same body answer the first answer, charging once (24 h)',
            },
          },
        },
        // Types only, for the OpenAPI document; the payments service checks every rule.
        body: {
          type: 'object',
          properties: {
            retail_payment: {
              type: 'object',
              nullable: true,
              properties: {
                tenant_id: text('Tenant to associate the invoice with'),
                invoiceable_items: {
                  type: 'array',
                  nullable: true,
                  items: {
                    type: 'object',
                    properties: {
                      invoiceable_item_id: text('A retail item of this facility'),
                      quantity: numberOrText('A whole number from 1 to 1000'),
                    },
                  },
                },
              },
            },
            payment_method: { ...paymentMethodSchema, nullable: true },
          },
        },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      const facility = await services.facilities.facilityFor(caller, request.params.facility_id);
      const key = readIdempotencyKey(request.headers['idempotency-key']);
      const body = request.body ?? {};
      const data = (event: PaymentEvent) => ({
        successful_payment_event: serializePaymentEvent(event, facility.timeZone),
      });
      const idempotency: PaymentIdempotency | undefined = key
        ? {
            key,
            scope: 'rest',
            fingerprint: requestFingerprint('retail_payment', facility.id, body),
            render: (event) => JSON.stringify(okBody(request, data(event))),
          }
        : undefined;
      const outcome = await services.payments.payRetail(
        facility,
        caller,
        { retail_payment: body.retail_payment, payment_method: body.payment_method },
        { idempotency },
      );
      if (outcome.replayed) {
        return reply
          .code(outcome.status)
          .header('Idempotent-Replayed', 'true')
          .type('application/json; charset=utf-8')
          .send(outcome.answer);
      }
      // The body kept for replays is the one sent, byte for byte.
      if (outcome.answer !== null) {
        return reply.code(200).type('application/json; charset=utf-8').send(outcome.answer);
      }
      return sendOk(request, reply, data(outcome.event));
    },
  );
}
