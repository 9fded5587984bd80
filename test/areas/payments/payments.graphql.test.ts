import type {
  FacilityEventPaymentQuery,
  FacilityEventPaymentQueryVariables,
  FacilityPaymentEventsQuery,
  FacilityPaymentEventsQueryVariables,
  PayRetailMutation,
  PayRetailMutationVariables,
  PaymentMethodInput,
} from '../../generated/graphql';
import { buildEvent } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import {
  AMEX,
  DECLINED_VISA,
  PAY_AT,
  ROUTING,
  VISA,
  gatewayOf,
  loadPaymentWorld,
  snapshot,
  type PaymentWorld,
} from '../../support/payments';
import { codesOf, operation, postGraphql, run } from '../../graphql/graphql-client';

const PayRetail = operation<PayRetailMutation, PayRetailMutationVariables>('payments.graphql', 'PayRetail');
const PaymentEvents = operation<FacilityPaymentEventsQuery, FacilityPaymentEventsQueryVariables>(
  'payments.graphql',
  'FacilityPaymentEvents',
);
const EventPayment = operation<FacilityEventPaymentQuery, FacilityEventPaymentQueryVariables>(
  'payments.graphql',
  'FacilityEventPayment',
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const card = (o: Partial<PaymentMethodInput> = {}): PaymentMethodInput => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  kind: 'CREDIT_CARD',
  cardNumber: VISA,
  cardType: 'VISA',
  securityCode: '123',
  expirationDate: '12/30',
  billingAddress: { address1: '1 Main St', city: 'Springfield', state: 'IL', postal: '62701' },
  ...o,
});

describeEachDialect('GraphQL payRetail and payment events', (dialect) => {
  let t: TestApp;
  let w: PaymentWorld;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    w = await loadPaymentWorld(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(PAY_AT));

  const pay = (
    items: Array<{ invoiceableItemId: string; quantity: number }>,
    paymentMethod: PaymentMethodInput,
    extra: { tenantId?: string; idempotencyKey?: string; facilityId?: string } = {},
  ) =>
    run(t, PayRetail, {
      facilityId: extra.facilityId ?? t.world.facility.id,
      input: { invoiceableItems: items, paymentMethod, tenantId: extra.tenantId },
      idempotencyKey: extra.idempotencyKey,
    });

  it('pays with a card and answers the payment with its tenant, event and receipt', async () => {
    const before = await snapshot(t);
    const res = await pay(
      [
        { invoiceableItemId: w.retail.id, quantity: 2 },
        { invoiceableItemId: w.cheap.id, quantity: 1 },
      ],
      card({ reuseable: true }),
      { tenantId: w.tenant.id },
    );
    expect(res.errors).toBeUndefined();
    const paid = res.data!.payRetail;
    expect(paid).toEqual({
      id: expect.stringMatching(UUID),
      amount: 24.1,
      success: true,
      date: '2026-07-04T12:30:00-04:00',
      changeDue: 0,
      paymentMethod: {
        id: expect.stringMatching(UUID),
        kind: 'CREDIT_CARD',
        firstName: 'Ada',
        lastName: 'Lovelace',
        reuseable: true,
        cardNumber: '************1111',
        cardType: 'visa',
        expirationDate: '12/30',
        billingAddress: {
          company: null,
          address1: '1 Main St',
          address2: null,
          city: 'Springfield',
          state: 'IL',
          postal: '62701',
        },
      },
      lines: [
        {
          invoiceableItemId: w.retail.id,
          description: 'Disc lock',
          quantity: 2,
          unitTotal: 10.8,
          lineTotal: 21.6,
        },
        {
          invoiceableItemId: w.cheap.id,
          description: 'Packing tape',
          quantity: 1,
          unitTotal: 2.5,
          lineTotal: 2.5,
        },
      ],
      tenant: { id: w.tenant.id, firstName: 'Ada' },
      facility: { id: t.world.facility.id },
      event: {
        id: paid.id,
        type: 'SUCCESSFUL_PAYMENT_EVENT',
        createdAt: '2026-07-04T12:30:00-04:00',
        documents: { entries: [{ description: 'Receipt', esignable: false }] },
      },
    });
    const after = await snapshot(t);
    expect(after).toMatchObject({
      payments: (before.payments as number) + 1,
      payment_lines: (before.payment_lines as number) + 2,
      payment_methods: (before.payment_methods as number) + 1,
      events: (before.events as number) + 1,
      event_documents: (before.event_documents as number) + 1,
    });
    expect((after.stock as Record<string, number>)[w.retail.id]).toBe(
      (before.stock as Record<string, number>)[w.retail.id] - 2,
    );
  });

  it("reaches the payment from the facility's events, and answers null for other events", async () => {
    const cash = await pay([{ invoiceableItemId: w.retail.id, quantity: 1 }], {
      firstName: 'Ada',
      lastName: 'Lovelace',
      kind: 'CASH',
      amountTendered: 20,
      billingAddress: {},
    });
    expect(cash.errors).toBeUndefined();
    const id = cash.data!.payRetail.id;
    // A payment event imported without a payment record, and a move-in.
    const imported = buildEvent({ facility_id: t.world.facility.id, type: 'successful_payment_event' });
    const moveIn = buildEvent({ facility_id: t.world.facility.id });
    await t.load({ events: [imported, moveIn] });

    const list = await run(t, PaymentEvents, { id: t.world.facility.id });
    expect(list.errors).toBeUndefined();
    const entries = list.data!.facility!.events.entries;
    const mine = entries.find((e) => e.id === id);
    expect(mine).toEqual({
      id,
      type: 'SUCCESSFUL_PAYMENT_EVENT',
      createdAt: '2026-07-04T12:30:00-04:00',
      successfulPayment: {
        ...cash.data!.payRetail,
        tenant: undefined,
        facility: undefined,
        event: undefined,
      },
    });
    expect(mine!.successfulPayment).toMatchObject({ amount: 10.8, changeDue: 9.2 });
    expect(entries.find((e) => e.id === imported.id)?.successfulPayment).toBeNull();
    expect(entries.every((e) => e.type === 'SUCCESSFUL_PAYMENT_EVENT')).toBe(true);

    const one = await run(t, EventPayment, { id: t.world.facility.id, eventId: moveIn.id });
    expect(one.data!.facility!.event).toEqual({
      id: moveIn.id,
      type: 'MOVE_IN_UNIT_EVENT',
      successfulPayment: null,
    });
    const paidEvent = await run(t, EventPayment, { id: t.world.facility.id, eventId: id });
    expect(paidEvent.data!.facility!.event!.successfulPayment).toEqual({ id, amount: 10.8 });
  });

  it('names the input field at fault (BAD_USER_INPUT) and writes nothing', async () => {
    const cases: Array<[PayRetailMutationVariables['input'], string, string]> = [
      [
        { invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 0 }], paymentMethod: card() },
        'input.invoiceableItems[0].quantity',
        'must be a whole number from 1 to 1000',
      ],
      [
        { invoiceableItems: [{ invoiceableItemId: w.fee.id, quantity: 1 }], paymentMethod: card() },
        'input.invoiceableItems[0].invoiceableItemId',
        'is a fee item; only retail items can be paid for here',
      ],
      [
        { invoiceableItems: [], paymentMethod: card() },
        'input.invoiceableItems',
        'must name at least one retail item',
      ],
      [
        {
          invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
          paymentMethod: card({ cardNumber: '4111111111111112' }),
        },
        'input.paymentMethod.cardNumber',
        'is not a valid card number (its check digit is wrong)',
      ],
      [
        {
          invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
          paymentMethod: card({ cardType: 'MASTERCARD' }),
        },
        'input.paymentMethod.cardType',
        'is mastercard, but the card number is a Visa card (visa)',
      ],
      [
        {
          invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
          paymentMethod: card({ expirationDate: '06/26' }),
        },
        'input.paymentMethod.expirationDate',
        'is in the past: the card has expired',
      ],
      [
        {
          invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
          paymentMethod: card({ cardNumber: AMEX, cardType: 'AMERICAN_EXPRESS', securityCode: '123' }),
        },
        'input.paymentMethod.securityCode',
        'must be 4 digits for an American Express card',
      ],
      [
        {
          invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
          paymentMethod: card({ billingAddress: null }),
        },
        'input.paymentMethod.billingAddress',
        'is required for a new payment method (an object; its fields may be empty)',
      ],
      [
        {
          invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
          paymentMethod: {
            firstName: 'Ada',
            lastName: 'Lovelace',
            kind: 'ACH',
            accountNumber: '000123456789',
            accountNumberConfirmation: '000123456780',
            accountType: 'CHECKING',
            bankName: 'First Bank',
            routingNumber: ROUTING,
            billingAddress: {},
          },
        },
        'input.paymentMethod.accountNumberConfirmation',
        'does not match input.paymentMethod.accountNumber',
      ],
    ];
    for (const [input, parameter, message] of cases) {
      const before = await snapshot(t);
      const res = await run(t, PayRetail, { facilityId: t.world.facility.id, input });
      expect(res.data).toBeNull();
      expect(res.errors).toHaveLength(1);
      expect(res.errors![0]).toMatchObject({
        message: `${parameter} ${message}`,
        path: ['payRetail'],
        extensions: { code: 'BAD_USER_INPUT', errorCode: 4, parameter, problems: [{ parameter, message }] },
      });
      expect(await snapshot(t)).toEqual(before);
    }
  });

  it('refuses input of the wrong GraphQL type before the service runs', async () => {
    const before = await snapshot(t);
    const res = await postGraphql(
      t.app,
      {
        query: PayRetail.document,
        operationName: 'PayRetail',
        variables: {
          facilityId: t.world.facility.id,
          input: {
            invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1.5 }],
            paymentMethod: card(),
          },
        },
      },
      { bearer: t.world.client.bearer_token },
    );
    expect(codesOf(res)).toEqual(['BAD_USER_INPUT']);
    expect(await snapshot(t)).toEqual(before);
  });

  it('answers ACTION_FAILED for a declined card and for a gateway timeout, writing nothing', async () => {
    const before = await snapshot(t);
    const declined = await pay(
      [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
      card({ cardNumber: DECLINED_VISA }),
    );
    expect(declined.errors![0]).toMatchObject({
      message: 'input.paymentMethod: card declined',
      extensions: { code: 'ACTION_FAILED', errorCode: 3, parameter: 'input.paymentMethod' },
    });
    gatewayOf(t).failNext('timeout');
    const timeout = await pay([{ invoiceableItemId: w.cheap.id, quantity: 1 }], card());
    expect(timeout.errors![0].extensions).toMatchObject({ code: 'ACTION_FAILED', errorCode: 3 });
    expect(await snapshot(t)).toEqual(before);
  });

  it('answers the facility rule for tenants, an unknown tenant and a foreign facility', async () => {
    const disabled = await pay([{ invoiceableItemId: w.disabled.retail.id, quantity: 1 }], card(), {
      facilityId: w.disabled.tenant.facility_id,
      tenantId: w.disabled.tenant.id,
    });
    expect(disabled.errors![0].extensions).toMatchObject({ errorCode: 7, parameter: 'input.tenantId' });
    expect(codesOf(disabled)).toEqual(['DISABLED_FOR_TENANTS']);
    const unknown = await pay([{ invoiceableItemId: w.cheap.id, quantity: 1 }], card(), {
      tenantId: w.foreignTenant.id,
    });
    expect(unknown.errors![0].extensions).toMatchObject({ code: 'NOT_FOUND', parameter: 'input.tenantId' });
    const foreign = await pay([{ invoiceableItemId: w.foreignRetail.id, quantity: 1 }], card(), {
      facilityId: t.world.otherFacility.id,
    });
    expect(codesOf(foreign)).toEqual(['FORBIDDEN']);
  });

  it('pays once per idempotencyKey; other input under the same key is a CONFLICT', async () => {
    const charges = gatewayOf(t).charges.length;
    const items = [{ invoiceableItemId: w.cheap.id, quantity: 1 }];
    const first = await pay(items, card(), { idempotencyKey: 'gql-order-1' });
    const again = await pay(items, card(), { idempotencyKey: 'gql-order-1' });
    expect(first.errors).toBeUndefined();
    expect(again.data).toEqual(first.data);
    expect(gatewayOf(t).charges.length).toBe(charges + 1);
    const other = await pay([{ invoiceableItemId: w.cheap.id, quantity: 2 }], card(), {
      idempotencyKey: 'gql-order-1',
    });
    expect(other.errors![0].extensions).toMatchObject({
      code: 'CONFLICT',
      errorCode: 5,
      parameter: 'idempotencyKey',
    });
    const bad = await pay(items, card(), { idempotencyKey: 'has spaces' });
    expect(bad.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', parameter: 'idempotencyKey' });
    expect(gatewayOf(t).charges.length).toBe(charges + 1);
  });

  it('answers 401 without credentials', async () => {
    const before = await snapshot(t);
    const res = await postGraphql(
      t.app,
      {
        query: PayRetail.document,
        variables: {
          facilityId: t.world.facility.id,
          input: {
            invoiceableItems: [{ invoiceableItemId: w.cheap.id, quantity: 1 }],
            paymentMethod: card(),
          },
        },
      },
      { bearer: null },
    );
    expect(res.status).toBe(401);
    expect(codesOf(res)).toEqual(['UNAUTHENTICATED']);
    expect(await snapshot(t)).toEqual(before);
  });
});
