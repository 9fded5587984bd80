import { buildApp } from '../../../src/app';
import { loadConfig } from '../../../src/config';
import { buildItem } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../../support/http';
import {
  AMEX,
  DECLINED_VISA,
  PAY_AT,
  VISA,
  ach,
  cash,
  creditCard,
  gatewayOf,
  line,
  loadPaymentWorld,
  payment,
  snapshot,
  type PaymentWorld,
} from '../../support/payments';

/**
 * A test of how this instance keeps Idempotency-Keys (its own table, another instance on its
 * database): not run through the gateway, which scopes each caller's key before the upstream.
 */
const onTheInstance = process.env.FACILITY_OPS_TEST_THROUGH_GATEWAY === '1' ? it.skip : it;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeEachDialect('POST /v1/:facility_id/invoiceable_items/retail_payment', (dialect) => {
  let t: TestApp;
  let w: PaymentWorld;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    w = await loadPaymentWorld(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(PAY_AT));

  const pay = (body: unknown, headers: Record<string, string> = {}, url = w.url) =>
    t.postJson(url, body, headers);

  const stockOf = async (id: string) =>
    (
      await t.db.store.db
        .selectFrom('invoiceable_items')
        .select('quantity')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).quantity;

  /** A retail item of its own, so a test's stock counts are its own. */
  const freshItem = async (quantity: number, total = 10.8) => {
    const item = buildItem({ facility_id: t.world.facility.id, quantity, description: 'Moving box' });
    if (total !== 10.8) {
      item.invoiceable_amounts[0].amount = total - 0.8;
      item.total = total;
    }
    await t.load({ invoiceable_items: [item] });
    return item;
  };

  describe('paying', () => {
    it('charges a credit card and answers the successful_payment_event of 2.8 with meta filtered', async () => {
      const before = await snapshot(t);
      const charges = gatewayOf(t).charges.length;
      const body = payment([line(w.retail, '2'), line(w.cheap, 3)], creditCard(), { tenant_id: w.tenant.id });
      const res = await pay(body, { 'x-request-id': 'pay-1' });
      expect(res.statusCode).toBe(200);
      const json = res.json();
      expect(Object.keys(json)).toEqual(['successful_payment_event', 'meta']);
      expect(json.successful_payment_event).toEqual({
        id: expect.stringMatching(UUID),
        amount: 29.1,
        success: true,
        date: '2026-07-04T12:30:00-04:00',
        payment_method: {
          id: expect.stringMatching(UUID),
          kind: 'credit_card',
          first_name: 'Ada',
          last_name: 'Lovelace',
          reuseable: false,
          card_number: '************1111',
          card_type: 'visa',
          expiration_date: '12/30',
          billing_address: {
            company: null,
            address1: '1 Main St',
            address2: null,
            city: 'Springfield',
            state: 'IL',
            postal: '62701',
          },
        },
        change_due: 0,
      });
      expect(json.meta).toEqual({
        status_code: 200,
        status_message: 'OK',
        status_cat: 'https://http.cat/200',
        request_method: 'POST',
        request_id: 'pay-1',
        parameters: {
          retail_payment: body.retail_payment,
          payment_method: { ...creditCard(), card_number: '[FILTERED]', security_code: '[FILTERED]' },
          facility_id: t.world.facility.id,
        },
      });

      const after = await snapshot(t);
      expect(after).toEqual({
        ...before,
        payments: (before.payments as number) + 1,
        payment_lines: (before.payment_lines as number) + 2,
        payment_methods: (before.payment_methods as number) + 1,
        events: (before.events as number) + 1,
        event_documents: (before.event_documents as number) + 1,
        stock: {
          ...(before.stock as Record<string, number>),
          [w.retail.id]: (before.stock as Record<string, number>)[w.retail.id] - 2,
          [w.cheap.id]: (before.stock as Record<string, number>)[w.cheap.id] - 3,
        },
      });

      const id = json.successful_payment_event.id;
      const db = t.db.store.db;
      expect(await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst()).toEqual({
        id,
        facility_id: t.world.facility.id,
        type: 'successful_payment_event',
        ledger_id: null,
        created_at: '2026-07-04T16:30:00.000Z',
      });
      expect(await db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst()).toEqual({
        id,
        facility_id: t.world.facility.id,
        tenant_id: w.tenant.id,
        payment_method_id: json.successful_payment_event.payment_method.id,
        amount_cents: 2910,
        change_due_cents: 0,
        success: 1,
        paid_at: '2026-07-04T16:30:00.000Z',
        gateway_reference: expect.stringMatching(/^test_ch_/),
      });
      const lines = await db
        .selectFrom('payment_lines')
        .select(['invoiceable_item_id', 'quantity', 'unit_total_cents', 'line_total_cents', 'position'])
        .where('payment_id', '=', id)
        .orderBy('position')
        .execute();
      expect(lines).toEqual([
        {
          invoiceable_item_id: w.retail.id,
          quantity: 2,
          unit_total_cents: 1080,
          line_total_cents: 2160,
          position: 0,
        },
        {
          invoiceable_item_id: w.cheap.id,
          quantity: 3,
          unit_total_cents: 250,
          line_total_cents: 750,
          position: 1,
        },
      ]);
      expect(
        await db
          .selectFrom('payment_methods')
          .selectAll()
          .where('id', '=', json.successful_payment_event.payment_method.id)
          .executeTakeFirst(),
      ).toEqual({
        id: json.successful_payment_event.payment_method.id,
        facility_id: t.world.facility.id,
        tenant_id: w.tenant.id,
        kind: 'credit_card',
        first_name: 'Ada',
        last_name: 'Lovelace',
        reuseable: 0,
        card_last4: '1111',
        card_type: 'visa',
        expiration_date: '12/30',
        billing_address: JSON.stringify(json.successful_payment_event.payment_method.billing_address),
        created_at: '2026-07-04T16:30:00.000Z',
        gateway_token: null,
      });
      expect(gatewayOf(t).charges.slice(charges)).toEqual([
        { reference: id, amountCents: 2910, sourceType: 'card', last4: '1111', approved: true },
      ]);
    });

    it('writes a receipt document that GET /events/:event_id/documents lists', async () => {
      const res = await pay(payment([line(w.retail, 1), line(w.cheap, '4')], creditCard()));
      expect(res.statusCode).toBe(200);
      const id = res.json().successful_payment_event.id;
      // OAuth 1.0 signs with the real time, which the server's clock must be near.
      t.clock.set(new Date());
      const docs = await t.get(`/v1/${t.world.facility.id}/events/${id}/documents`);
      expect(docs.statusCode).toBe(200);
      expect(docs.json().documents).toEqual([
        {
          id: expect.stringMatching(UUID),
          description: 'Receipt',
          type: 'PrintTemplate',
          is_relevant: true,
          created_at: '2026-07-04T12:30:00-04:00',
        },
      ]);
      const stored = await t.db.store.db
        .selectFrom('event_documents')
        .select(['body', 'esignable'])
        .where('event_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(stored.esignable).toBe(0);
      expect(stored.body).toBe(
        [
          'RECEIPT',
          '',
          '{{facility_name}}',
          'Date: {{date}}',
          'Customer: {{tenant_name}}',
          '',
          '1 x Disc lock @ 10.80 = 10.80',
          '4 x Packing tape @ 2.50 = 10.00',
          '',
          'Total: 20.80',
          'Paid by: Visa ending 1111',
          '',
          'Thank you for your purchase.',
        ].join('\n'),
      );
    });

    it('saves a reuseable card (brand, last four, expiry and the gateway token) and pays with it again', async () => {
      const first = await pay(
        payment(
          [line(w.cheap)],
          creditCard({
            card_number: AMEX,
            card_type: 'american_express',
            security_code: '1234',
            reuseable: 'true',
          }),
          {
            tenant_id: w.tenant.id,
          },
        ),
      );
      expect(first.statusCode).toBe(200);
      const method = first.json().successful_payment_event.payment_method;
      expect(method).toMatchObject({
        reuseable: true,
        card_number: '************0005',
        card_type: 'american_express',
        expiration_date: '12/30',
      });
      const row = await t.db.store.db
        .selectFrom('payment_methods')
        .selectAll()
        .where('id', '=', method.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        reuseable: 1,
        card_last4: '0005',
        gateway_token: expect.stringMatching(/^test_tok_/),
      });

      const before = await snapshot(t);
      const again = await pay(
        payment(
          [line(w.cheap, 2)],
          { payment_method_id: method.id.toUpperCase() },
          { tenant_id: w.tenant.id },
        ),
      );
      expect(again.statusCode).toBe(200);
      expect(again.json().successful_payment_event).toMatchObject({ amount: 5, payment_method: method });
      expect(await snapshot(t)).toMatchObject({
        payment_methods: before.payment_methods,
        payments: (before.payments as number) + 1,
      });
      expect(gatewayOf(t).charges.at(-1)).toMatchObject({
        sourceType: 'saved',
        last4: '0005',
        amountCents: 500,
      });

      // Without a tenant_id, the saved method's own tenant pays.
      const walkIn = await pay(payment([line(w.cheap)], { payment_method_id: method.id }));
      expect(walkIn.statusCode).toBe(200);
      const paid = await t.db.store.db
        .selectFrom('payments')
        .select('tenant_id')
        .where('id', '=', walkIn.json().successful_payment_event.id)
        .executeTakeFirstOrThrow();
      expect(paid.tenant_id).toBe(w.tenant.id);
    });

    it('refuses a payment_method_id that is not a saved method of this facility and tenant (400/4)', async () => {
      const saved = await pay(
        payment([line(w.cheap)], creditCard({ reuseable: true }), { tenant_id: w.tenant.id }),
      );
      const savedId = saved.json().successful_payment_event.payment_method.id;
      const once = await pay(payment([line(w.cheap)], creditCard({ reuseable: false })));
      const onceId = once.json().successful_payment_event.payment_method.id;
      await t.load({
        payment_methods: [
          {
            id: '5b0a3e1c-0000-4000-8000-00000000f0f0',
            facility_id: t.world.otherFacility.id,
            kind: 'credit_card',
            first_name: 'X',
            last_name: 'Y',
            reuseable: true,
            card_last4: '4242',
            card_type: 'visa',
            expiration_date: '12/30',
          },
          {
            id: '5b0a3e1c-0000-4000-8000-00000000e0e0',
            facility_id: t.world.facility.id,
            tenant_id: w.tenant.id,
            kind: 'credit_card',
            first_name: 'Ada',
            last_name: 'Lovelace',
            reuseable: true,
            card_last4: '4242',
            card_type: 'visa',
            expiration_date: '06/26',
          },
          {
            id: '5b0a3e1c-0000-4000-8000-00000000d0d0',
            facility_id: t.world.facility.id,
            kind: 'cash',
            first_name: 'Ada',
            last_name: 'Lovelace',
            reuseable: true,
          },
        ],
      });
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['5b0a3e1c-0000-4000-8000-000000000000', {}, 'names no saved payment method of this facility'],
        ['5b0a3e1c-0000-4000-8000-00000000f0f0', {}, 'names no saved payment method of this facility'],
        [onceId, {}, 'names no saved payment method of this facility'],
        [
          savedId,
          { tenant_id: w.otherTenant.id },
          'is not a saved payment method of retail_payment.tenant_id',
        ],
        ['5b0a3e1c-0000-4000-8000-00000000e0e0', {}, 'is a card that expired 06/26'],
        [
          '5b0a3e1c-0000-4000-8000-00000000d0d0',
          {},
          'is a cash method; only card and bank account methods can be charged again',
        ],
        ['not-a-uuid', {}, 'must be a UUID'],
      ];
      for (const [id, retail, message] of cases) {
        const before = await snapshot(t);
        const res = await pay(payment([line(w.cheap)], { payment_method_id: id }, retail));
        expect(res.statusCode).toBe(400);
        expect(res.json().meta).toMatchObject({
          error_code: 4,
          errors: [{ parameter: 'payment_method.payment_method_id', message }],
        });
        expect(await snapshot(t)).toEqual(before);
      }
    });

    it('accepts the legacy kind spellings creditcard and cardswipe', async () => {
      const res = await pay(payment([line(w.cheap)], creditCard({ kind: 'creditcard' })));
      expect(res.statusCode).toBe(200);
      expect(res.json().successful_payment_event.payment_method.kind).toBe('credit_card');
      const swipe = await pay(
        payment([line(w.cheap)], {
          ...cash(0),
          kind: 'cardswipe',
          amount_tendered: undefined,
          magnetic_track: `;${VISA}=30121010000000000000?`,
        }),
      );
      expect(swipe.statusCode).toBe(200);
      expect(swipe.json().successful_payment_event.payment_method).toMatchObject({
        kind: 'card_swipe',
        card_number: '************1111',
        card_type: 'visa',
        expiration_date: '12/30',
        billing_address: null,
      });
    });

    it.each([
      ['track 1', `%B${VISA}^LOVELACE/ADA^2811101000000000000000000?`, '11/28'],
      ['track 2', `;${VISA}=28111010000000000000?`, '11/28'],
      ['both tracks', `%B${VISA}^LOVELACE/ADA^2811101000000?;${VISA}=28111010000000000000?`, '11/28'],
    ])('reads a card swipe from %s', async (_label, track, expiry) => {
      const res = await pay(
        payment([line(w.cheap)], {
          first_name: 'Ada',
          last_name: 'Lovelace',
          kind: 'card_swipe',
          card_type: 'visa',
          magnetic_track: track,
          billing_address_attributes: {},
        }),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().successful_payment_event.payment_method).toMatchObject({
        kind: 'card_swipe',
        card_number: '************1111',
        expiration_date: expiry,
      });
      expect(res.json().meta.parameters.payment_method.magnetic_track).toBe('[FILTERED]');
      expect(gatewayOf(t).charges.at(-1)).toMatchObject({ sourceType: 'swipe', last4: '1111' });
    });

    it('charges a bank account (ACH): no card fields, account filtered in the echo', async () => {
      const res = await pay(payment([line(w.retail)], ach({ reuseable: true })));
      expect(res.statusCode).toBe(200);
      const event = res.json().successful_payment_event;
      expect(event.payment_method).toMatchObject({
        kind: 'ach',
        reuseable: true,
        card_number: null,
        card_type: null,
        expiration_date: null,
      });
      expect(res.json().meta.parameters.payment_method).toMatchObject({
        account_number: '[FILTERED]',
        account_number_confirmation: '[FILTERED]',
        routing_number: '011000015',
      });
      expect(gatewayOf(t).charges.at(-1)).toMatchObject({
        sourceType: 'ach',
        last4: '6789',
        amountCents: 1080,
      });
    });

    it('takes cash and answers the change due; does not call the gateway', async () => {
      const charges = gatewayOf(t).charges.length;
      const res = await pay(payment([line(w.retail, 2)], cash('50', { reuseable: true })));
      expect(res.statusCode).toBe(200);
      expect(res.json().successful_payment_event).toMatchObject({
        amount: 21.6,
        change_due: 28.4,
        payment_method: { kind: 'cash', reuseable: false, card_number: null, billing_address: null },
      });
      expect(gatewayOf(t).charges.length).toBe(charges);
      const id = res.json().successful_payment_event.id;
      const body = await t.db.store.db
        .selectFrom('event_documents')
        .select('body')
        .where('event_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(body.body).toContain('Paid by: Cash\nTendered: 50.00\nChange due: 28.40');
      const exact = await pay(payment([line(w.retail, 1)], cash(10.8)));
      expect(exact.json().successful_payment_event.change_due).toBe(0);
    });

    it('takes a check and a money order for exactly the charge', async () => {
      const check = await pay(
        payment([line(w.retail)], {
          ...cash(0),
          amount_tendered: undefined,
          kind: 'check',
          check_number: '1042',
          name_on_check: 'Ada Lovelace',
          check_amount: '10.80',
        }),
      );
      expect(check.statusCode).toBe(200);
      expect(check.json().successful_payment_event.payment_method.kind).toBe('check');
      const order = await pay(
        payment([line(w.retail)], {
          ...cash(0),
          amount_tendered: undefined,
          kind: 'money_order',
          reference_number: 'MO-7781',
          money_order_amount: 10.8,
        }),
      );
      expect(order.statusCode).toBe(200);
      expect(order.json().successful_payment_event.payment_method.kind).toBe('money_order');
    });

    it('answers 400/3 when the tender is short, 400/4 when a check is for more than the charge', async () => {
      const before = await snapshot(t);
      const short = await pay(payment([line(w.retail, 2)], cash('21.59')));
      expect(short.statusCode).toBe(400);
      expect(short.json().meta).toMatchObject({
        error_code: 3,
        message: 'payment_method.amount_tendered: not enough tendered: the charge is 21.60',
        errors: [
          {
            parameter: 'payment_method.amount_tendered',
            message: 'not enough tendered: the charge is 21.60',
          },
        ],
      });
      const over = await pay(
        payment([line(w.retail)], {
          ...cash(0),
          amount_tendered: undefined,
          kind: 'check',
          check_number: '1',
          name_on_check: 'Ada',
          check_amount: '11.00',
        }),
      );
      expect(over.statusCode).toBe(400);
      expect(over.json().meta).toMatchObject({
        error_code: 4,
        errors: [
          {
            parameter: 'payment_method.check_amount',
            message: 'must equal the charge of 10.80 (no change is given)',
          },
        ],
      });
      expect(await snapshot(t)).toEqual(before);
    });
  });

  describe('failures change nothing', () => {
    it('answers 400/3 "card declined" for the decline test number and writes nothing', async () => {
      const before = await snapshot(t);
      const res = await pay(
        payment([line(w.retail)], creditCard({ card_number: DECLINED_VISA, reuseable: true }), {
          tenant_id: w.tenant.id,
        }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({
        status_code: 400,
        error_code: 3,
        message: 'payment_method: card declined',
        errors: [{ parameter: 'payment_method', message: 'card declined' }],
      });
      expect(await snapshot(t)).toEqual(before);
      expect(gatewayOf(t).charges.at(-1)).toMatchObject({ approved: false, last4: '0002' });
    });

    it.each([
      [
        'times out',
        'timeout' as const,
        'the payment gateway did not answer in time; nothing was charged, try again',
      ],
      [
        'is unavailable',
        'unavailable' as const,
        'the payment gateway is unavailable; nothing was charged, try again',
      ],
    ])(
      'answers 400/3 when the gateway %s, voids the reference and writes nothing',
      async (_label, failure, message) => {
        const before = await snapshot(t);
        const voids = gatewayOf(t).voids.length;
        gatewayOf(t).failNext(failure);
        const res = await pay(payment([line(w.retail)], creditCard({ reuseable: true })));
        expect(res.statusCode).toBe(400);
        expect(res.json().meta).toMatchObject({
          error_code: 3,
          errors: [{ parameter: 'payment_method', message }],
        });
        expect(await snapshot(t)).toEqual(before);
        expect(gatewayOf(t).voids.length).toBe(voids + 1);
      },
    );

    it('stops waiting for a gateway that hangs past its deadline, voids, and writes nothing', async () => {
      const gateway = gatewayOf(t);
      const deadline = gateway.deadlineMs;
      gateway.deadlineMs = 50;
      try {
        const before = await snapshot(t);
        gateway.failNext('hang');
        const res = await pay(payment([line(w.retail)], creditCard()));
        expect(res.statusCode).toBe(400);
        expect(res.json().meta.errors).toEqual([
          {
            parameter: 'payment_method',
            message: 'the payment gateway did not answer in time; nothing was charged, try again',
          },
        ]);
        expect(await snapshot(t)).toEqual(before);
        const after = await pay(payment([line(w.retail)], creditCard()));
        expect(after.statusCode).toBe(200);
      } finally {
        gateway.deadlineMs = deadline;
      }
    });

    it('answers 400/3 naming the quantity when there is not enough stock, and takes none', async () => {
      const item = await freshItem(3);
      const before = await snapshot(t);
      const res = await pay(payment([line(w.cheap, 1), line(item, 4)], creditCard()));
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({
        error_code: 3,
        message: 'retail_payment.invoiceable_items[1].quantity: not enough stock: 4 asked, 3 left',
        errors: [
          {
            parameter: 'retail_payment.invoiceable_items[1].quantity',
            message: 'not enough stock: 4 asked, 3 left',
          },
        ],
      });
      expect(await snapshot(t)).toEqual(before);
      const all = await pay(payment([line(item, 3)], creditCard()));
      expect(all.statusCode).toBe(200);
      expect(await stockOf(item.id)).toBe(0);
      const none = await pay(payment([line(item, 1)], creditCard()));
      expect(none.json().meta).toMatchObject({
        error_code: 3,
        message: expect.stringContaining('1 asked, 0 left'),
      });
      expect(await stockOf(item.id)).toBe(0);
    });

    it('sells 5 of 5 in stock to 20 concurrent payments: 5 successes, 15 answers of 400/3', async () => {
      const item = await freshItem(5);
      const before = await snapshot(t);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          pay(payment([line(item, 1)], i % 2 === 0 ? creditCard() : cash('20'))),
        ),
      );
      const ok = responses.filter((r) => r.statusCode === 200);
      const refused = responses.filter((r) => r.statusCode === 400);
      expect(ok).toHaveLength(5);
      expect(refused).toHaveLength(15);
      for (const res of refused) {
        expect(res.json().meta).toMatchObject({
          error_code: 3,
          errors: [
            {
              parameter: 'retail_payment.invoiceable_items[0].quantity',
              message: 'not enough stock: 1 asked, 0 left',
            },
          ],
        });
      }
      expect(await stockOf(item.id)).toBe(0);
      const after = await snapshot(t);
      expect(after.payments).toBe((before.payments as number) + 5);
      expect(after.payment_lines).toBe((before.payment_lines as number) + 5);
      const sold = await t.db.store.db
        .selectFrom('payment_lines')
        .select((eb) => eb.fn.sum<number>('quantity').as('n'))
        .where('invoiceable_item_id', '=', item.id)
        .executeTakeFirstOrThrow();
      expect(Number(sold.n)).toBe(5);
    });
  });

  describe('tenants', () => {
    it('answers 404/9 for a tenant_id that names no tenant of the facility', async () => {
      for (const id of ['0c8f6a0e-8a43-4f55-9e7c-2f4d7f3f8a11', w.foreignTenant.id]) {
        const before = await snapshot(t);
        const res = await pay(payment([line(w.cheap)], creditCard(), { tenant_id: id }));
        expect(res.statusCode).toBe(404);
        expect(res.json().meta).toMatchObject({
          error_code: 9,
          errors: [{ parameter: 'retail_payment.tenant_id', message: 'no tenant with this id' }],
        });
        expect(await snapshot(t)).toEqual(before);
      }
    });

    it('answers 400/7 for a tenant of a facility that disables tenant payments; a walk-in pays', async () => {
      const { disabled } = w;
      const before = await snapshot(t);
      const res = await pay(
        payment([line(disabled.retail)], creditCard(), { tenant_id: disabled.tenant.id }),
        {},
        disabled.url,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({
        error_code: 7,
        message: 'this facility does not take payments from tenants through the API',
        errors: [
          {
            parameter: 'retail_payment.tenant_id',
            message: 'names a tenant; tenant payments are disabled here',
          },
        ],
      });
      expect(await snapshot(t)).toEqual(before);
      const walkIn = await pay(
        payment([line(disabled.retail)], creditCard({ reuseable: true })),
        {},
        disabled.url,
      );
      expect(walkIn.statusCode).toBe(200);
    });

    it('answers 400/7 for a saved method of a tenant at a facility that disables tenant payments', async () => {
      const { disabled } = w;
      await t.load({
        payment_methods: [
          {
            id: '6c1b4f2d-0000-4000-8000-00000000abcd',
            facility_id: disabled.tenant.facility_id,
            tenant_id: disabled.tenant.id,
            kind: 'credit_card',
            first_name: 'Ada',
            last_name: 'Lovelace',
            reuseable: true,
            card_last4: '4242',
            card_type: 'visa',
            expiration_date: '12/30',
          },
        ],
      });
      const res = await pay(
        payment([line(disabled.retail)], { payment_method_id: '6c1b4f2d-0000-4000-8000-00000000abcd' }),
        {},
        disabled.url,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({
        error_code: 7,
        errors: [
          {
            parameter: 'payment_method.payment_method_id',
            message: 'names a tenant; tenant payments are disabled here',
          },
        ],
      });
    });
  });

  describe('Idempotency-Key', () => {
    onTheInstance(
      'answers a retry with the first body unchanged, Idempotent-Replayed: true, and charges once',
      async () => {
        const before = await snapshot(t);
        const charges = gatewayOf(t).charges.length;
        const body = payment([line(w.cheap, 2)], creditCard(), { tenant_id: w.tenant.id });
        const first = await pay(body, { 'idempotency-key': 'order-1001', 'x-request-id': 'first' });
        expect(first.statusCode).toBe(200);
        expect(first.headers['idempotent-replayed']).toBeUndefined();
        t.clock.set(new Date(PAY_AT.getTime() + 60_000));
        // Same body with its keys in another order is the same request.
        const reordered = { payment_method: body.payment_method, retail_payment: body.retail_payment };
        const retry = await pay(reordered, { 'idempotency-key': 'order-1001', 'x-request-id': 'retry' });
        expect(retry.statusCode).toBe(200);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.headers['x-request-id']).toBe('retry');
        expect(retry.body).toBe(first.body);
        expect(retry.json().meta.request_id).toBe('first');
        expect(gatewayOf(t).charges.length).toBe(charges + 1);
        expect(await snapshot(t)).toMatchObject({
          payments: (before.payments as number) + 1,
          idempotency_keys: (before.idempotency_keys as number) + 1,
        });
        const stored = await t.db.store.db
          .selectFrom('idempotency_keys')
          .selectAll()
          .where('key', '=', 'rest:order-1001')
          .executeTakeFirstOrThrow();
        expect(stored).toEqual({
          client_id: t.world.client.id,
          key: 'rest:order-1001',
          request_hash: expect.stringMatching(/^v2:[0-9a-f]{64}$/),
          response_status: 200,
          response_body: first.body,
          created_at: '2026-07-04T16:30:00.000Z',
          expires_at: '2026-07-05T16:30:00.000Z',
        });
      },
    );

    it('answers 400/5 for the same key with a different body, and charges nothing', async () => {
      const body = payment([line(w.cheap)], creditCard());
      expect((await pay(body, { 'idempotency-key': 'order-2002' })).statusCode).toBe(200);
      const before = await snapshot(t);
      const charges = gatewayOf(t).charges.length;
      for (const other of [
        payment([line(w.cheap, 2)], creditCard()),
        payment([line(w.cheap)], creditCard({ card_number: '5555555555554444', card_type: 'mastercard' })),
        payment([line(w.cheap)], creditCard(), { tenant_id: w.tenant.id }),
      ]) {
        const res = await pay(other, { 'idempotency-key': 'order-2002' });
        expect(res.statusCode).toBe(400);
        expect(res.json().meta).toMatchObject({
          error_code: 5,
          errors: [{ parameter: 'Idempotency-Key', message: 'was used before with a different request' }],
        });
      }
      // The same body at another facility is another request.
      const elsewhere = await pay(
        payment([line(w.disabled.retail)], creditCard()),
        { 'idempotency-key': 'order-2002' },
        w.disabled.url,
      );
      expect(elsewhere.statusCode).toBe(400);
      expect(elsewhere.json().meta.error_code).toBe(5);
      expect(await snapshot(t)).toEqual(before);
      expect(gatewayOf(t).charges.length).toBe(charges);
    });

    it('keeps no key for a failed payment, so a retry with the same key is charged once', async () => {
      const body = payment([line(w.cheap)], creditCard());
      const before = await snapshot(t);
      gatewayOf(t).failNext('unavailable');
      const failed = await pay(body, { 'idempotency-key': 'order-3003' });
      expect(failed.statusCode).toBe(400);
      expect(await snapshot(t)).toEqual(before);
      const charges = gatewayOf(t).capturedCharges().length;
      const retry = await pay(body, { 'idempotency-key': 'order-3003' });
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      const again = await pay(body, { 'idempotency-key': 'order-3003' });
      expect(again.body).toBe(retry.body);
      expect(gatewayOf(t).capturedCharges().length).toBe(charges + 1);
    });

    it('charges once for five concurrent requests with the same key and body', async () => {
      const before = await snapshot(t);
      const charges = gatewayOf(t).charges.length;
      const body = payment([line(w.cheap)], creditCard());
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => pay(body, { 'idempotency-key': 'order-4004' })),
      );
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(responses.map((r) => r.body)).size).toBe(1);
      expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
      expect(gatewayOf(t).charges.length).toBe(charges + 1);
      expect((await snapshot(t)).payments).toBe((before.payments as number) + 1);
    });

    onTheInstance(
      'answers a key an earlier version kept without its answer with that payment, charging nothing',
      async () => {
        const body = payment([line(w.cheap)], creditCard());
        const first = await pay(body, { 'idempotency-key': 'order-5505' });
        expect(first.statusCode).toBe(200);
        const paymentId = first.json().successful_payment_event.id as string;
        // What a version that kept the answer after the commit left when it stopped in between.
        await t.db.store.db
          .updateTable('idempotency_keys')
          .set({ response_status: 0, response_body: JSON.stringify({ payment_event_id: paymentId }) })
          .where('key', '=', 'rest:order-5505')
          .execute();
        const charges = gatewayOf(t).charges.length;
        const retry = await pay(body, { 'idempotency-key': 'order-5505', 'x-request-id': 'after-upgrade' });
        expect(retry.statusCode).toBe(200);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.json().successful_payment_event).toEqual(first.json().successful_payment_event);
        expect(retry.json().meta.request_id).toBe('after-upgrade');
        expect(gatewayOf(t).charges.length).toBe(charges);
      },
    );

    onTheInstance('holds across instances: another app on the same database replays the answer', async () => {
      const body = payment([line(w.cheap)], creditCard());
      const first = await pay(body, { 'idempotency-key': 'order-5005' });
      expect(first.statusCode).toBe(200);
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
      const second = await buildApp({ config, store: t.db.store, clock: t.clock });
      try {
        const res = await second.app.inject({
          method: 'POST',
          url: w.url,
          headers: {
            authorization: `Bearer ${t.world.client.bearer_token}`,
            'content-type': 'application/json',
            'idempotency-key': 'order-5005',
          },
          payload: JSON.stringify(body),
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['idempotent-replayed']).toBe('true');
        expect(res.body).toBe(first.body);
      } finally {
        await second.app.close();
      }
    });

    it('forgets a key after 24 hours', async () => {
      const body = payment([line(w.cheap)], creditCard());
      const first = await pay(body, { 'idempotency-key': 'order-6006' });
      t.clock.set(new Date(PAY_AT.getTime() + 24 * 3600_000 - 1000));
      const within = await pay(body, { 'idempotency-key': 'order-6006' });
      expect(within.headers['idempotent-replayed']).toBe('true');
      t.clock.set(new Date(PAY_AT.getTime() + 24 * 3600_000));
      const later = await pay(payment([line(w.cheap, 2)], creditCard()), { 'idempotency-key': 'order-6006' });
      expect(later.statusCode).toBe(200);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
      expect(later.json().successful_payment_event.id).not.toBe(first.json().successful_payment_event.id);
    });

    it('keeps keys of different clients apart', async () => {
      const otherClient = { ...t.world.client, id: '7e2c5a3b-0000-4000-8000-000000000001' };
      await t.load({
        client_applications: [
          {
            ...otherClient,
            name: 'Kiosk',
            consumer_key: 'kiosk-consumer-key-0001',
            consumer_secret: 'kiosk-consumer-secret-0001',
            bearer_token: 'kiosk-bearer-token-0000000001',
          },
        ],
      });
      const body = payment([line(w.cheap)], creditCard());
      const mine = await pay(body, { 'idempotency-key': 'order-7007' });
      const theirs = await t.postJson(w.url, body, {
        'idempotency-key': 'order-7007',
        authorization: 'Bearer kiosk-bearer-token-0000000001',
      });
      expect(mine.statusCode).toBe(200);
      expect(theirs.statusCode).toBe(200);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.json().successful_payment_event.id).not.toBe(mine.json().successful_payment_event.id);
    });

    it.each([
      ['too long', 'k'.repeat(256)],
      ['with spaces', 'order 1'],
      ['empty', ''],
      ['non-ASCII', 'ordér'],
    ])('answers 400/4 naming Idempotency-Key for a key %s', async (_label, key) => {
      const before = await snapshot(t);
      const res = await pay(payment([line(w.cheap)], creditCard()), { 'idempotency-key': key });
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'Idempotency-Key' }] });
      expect(await snapshot(t)).toEqual(before);
    });
  });

  describe('access', () => {
    it('answers 401 without credentials and writes nothing', async () => {
      const before = await snapshot(t);
      const res = await t.app.inject({
        method: 'POST',
        url: w.url,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payment([line(w.cheap)], creditCard())),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().meta).toMatchObject({ error_code: 2 });
      expect(await snapshot(t)).toEqual(before);
    });

    it("answers 403 for another company's facility and 404 for an unknown one", async () => {
      const before = await snapshot(t);
      const body = payment([line(w.foreignRetail)], creditCard());
      const forbidden = await pay(
        body,
        {},
        `/v1/${t.world.otherFacility.id}/invoiceable_items/retail_payment`,
      );
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().meta).toMatchObject({ error_code: 13 });
      const unknown = await pay(
        body,
        {},
        '/v1/0c8f6a0e-8a43-4f55-9e7c-2f4d7f3f8a11/invoiceable_items/retail_payment',
      );
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().meta).toMatchObject({ error_code: 9, errors: [{ parameter: 'facility_id' }] });
      expect(await snapshot(t)).toEqual(before);
    });

    it('accepts an OAuth 1.0 signed form-encoded body', async () => {
      t.clock.set(new Date());
      const form: Record<string, string> = {
        'retail_payment[invoiceable_items][][invoiceable_item_id]': w.cheap.id,
        'retail_payment[invoiceable_items][][quantity]': '2',
        'payment_method[first_name]': 'Ada',
        'payment_method[last_name]': 'Lovelace',
        'payment_method[kind]': 'cash',
        'payment_method[amount_tendered]': '10',
        'payment_method[billing_address_attributes][postal]': '62701',
      };
      const res = await t.app.inject({
        method: 'POST',
        url: w.url,
        headers: {
          authorization: oauthHeader(t.world.client, { method: 'POST', url: w.url, data: form }),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams(form).toString(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().successful_payment_event).toMatchObject({
        amount: 5,
        change_due: 5,
        payment_method: {
          kind: 'cash',
          billing_address: {
            company: null,
            address1: null,
            address2: null,
            city: null,
            state: null,
            postal: '62701',
          },
        },
      });
    });

    it('answers 405 for another method on the path', async () => {
      t.clock.set(new Date());
      const res = await t.get(w.url);
      expect(res.statusCode).toBe(405);
    });
  });
});
