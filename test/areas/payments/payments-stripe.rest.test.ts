import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { sql } from 'kysely';
import { startTracing, type ActiveTracing } from '../../../src/telemetry/tracing';
import { PAYMENT_METADATA_KEY } from '../../../src/adapters/payments/stripe-gateway';
import { FakeStripe, parseForm } from '../../support/fake-stripe';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import {
  DECLINED_VISA,
  PAY_AT,
  VISA,
  cash,
  creditCard,
  line,
  loadPaymentWorld,
  payment,
  snapshot,
  type PaymentWorld,
} from '../../support/payments';

/** Every text value in every table of the database, to look for what must never be kept. */
async function everythingStored(t: TestApp): Promise<string> {
  const db = t.db.store.db;
  const tables = await db.introspection.getTables();
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(db);
    parts.push(JSON.stringify(rows.rows));
  }
  return parts.join('\n');
}

/**
 * PAYMENT_PROCESSOR=stripe against a fake of Stripe's API on loopback, through the official SDK:
 * the charge is made with no transaction open, and every failure gives back what it held.
 */
describeEachDialect('retail payments through Stripe (PAYMENT_PROCESSOR=stripe)', (dialect) => {
  let fake: FakeStripe;
  let t: TestApp;
  let w: PaymentWorld;
  const logLines: string[] = [];

  beforeAll(async () => {
    fake = await new FakeStripe('sk_test_facility_ops').start();
    t = await createTestApp(dialect, {
      logLines,
      env: {
        PAYMENT_PROCESSOR: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_facility_ops',
        STRIPE_API_URL: fake.url,
        PAYMENT_PROCESSOR_TIMEOUT_MS: '1500',
      },
    });
    w = await loadPaymentWorld(t);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => t.clock.set(PAY_AT));

  const pay = (body: unknown, headers: Record<string, string> = {}) => t.postJson(w.url, body, headers);
  const intentBody = (intentId: string) => {
    const index = fake.intents.findIndex((i) => i.id === intentId);
    const creations = fake.requests
      .map((r, i) => ({ ...r, body: fake.bodies[i] }))
      .filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    return parseForm(creations[index].body);
  };

  it('makes one PaymentIntent in cents under the payment id as Idempotency-Key, and keeps its id', async () => {
    const intents = fake.intents.length;
    const res = await pay(payment([line(w.retail, 2)], creditCard()), { 'idempotency-key': 'stripe-1' });
    expect(res.statusCode).toBe(200);
    const event = res.json().successful_payment_event;
    expect(event).toMatchObject({ amount: 21.6, payment_method: { card_number: '************1111' } });
    expect(fake.intents.length).toBe(intents + 1);
    const intent = fake.intents.at(-1)!;
    expect(intent).toMatchObject({
      amount: 2160,
      currency: 'usd',
      status: 'succeeded',
      idempotencyKey: event.id,
      metadata: { [PAYMENT_METADATA_KEY]: event.id, facility_id: t.world.facility.id },
    });
    expect(intentBody(intent.id)).toMatchObject({
      confirm: 'true',
      payment_method_data: { type: 'card', card: { number: VISA, exp_month: '12', exp_year: '2030' } },
    });
    const stored = await t.db.store.db
      .selectFrom('payments')
      .select('gateway_reference')
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(stored.gateway_reference).toBe(intent.id);
    // The card number went to the processor and nowhere else.
    expect(logLines.join('\n')).not.toContain(VISA);
    expect(await everythingStored(t)).not.toContain(VISA);
    expect(await everythingStored(t)).not.toContain('4111 1111');
    // A retry under the same key answers the same payment and makes no second intent.
    const retry = await pay(payment([line(w.retail, 2)], creditCard()), { 'idempotency-key': 'stripe-1' });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(res.body);
    expect(fake.intents.length).toBe(intents + 1);
  });

  it('charges a saved method through the processor stored payment method, off-session', async () => {
    const first = await pay(
      payment([line(w.cheap)], creditCard({ reuseable: true }), { tenant_id: w.tenant.id }),
    );
    expect(first.statusCode).toBe(200);
    const methodId = first.json().successful_payment_event.payment_method.id as string;
    const made = fake.intents.at(-1)!;
    expect(made.customer).toMatch(/^cus_/);
    expect(intentBody(made.id)).toMatchObject({ setup_future_usage: 'off_session', customer: made.customer });

    const again = await pay(
      payment([line(w.cheap)], { payment_method_id: methodId }, { tenant_id: w.tenant.id }),
    );
    expect(again.statusCode).toBe(200);
    const reused = fake.intents.at(-1)!;
    expect(reused.id).not.toBe(made.id);
    expect(intentBody(reused.id)).toMatchObject({
      customer: made.customer,
      payment_method: made.payment_method,
      off_session: 'true',
    });
    expect(intentBody(reused.id).payment_method_data).toBeUndefined();
  });

  it('answers a decline 400/3 as the test processor does, and writes and holds nothing', async () => {
    const before = await snapshot(t);
    const res = await pay(payment([line(w.retail)], creditCard({ card_number: DECLINED_VISA })), {
      'idempotency-key': 'stripe-declined',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({
      error_code: 3,
      errors: [{ parameter: 'payment_method', message: 'card declined' }],
    });
    expect(await snapshot(t)).toEqual(before);
    expect(await t.db.store.db.selectFrom('payment_holds').selectAll().execute()).toEqual([]);
  });

  it('refuses a swipe 400/4 naming payment_method.kind and the processor; cash needs no processor', async () => {
    const before = await snapshot(t);
    const requests = fake.requests.length;
    const swipe = await pay(
      payment([line(w.retail)], {
        ...creditCard(),
        kind: 'card_swipe',
        card_number: undefined,
        security_code: undefined,
        expiration_date: undefined,
        magnetic_track: ';4111111111111111=30121010000000000000?',
      }),
    );
    expect(swipe.statusCode).toBe(400);
    expect(swipe.json().meta).toMatchObject({
      error_code: 4,
      errors: [
        {
          parameter: 'payment_method.kind',
          message: expect.stringContaining('the stripe processor refuses it'),
        },
      ],
    });
    expect(await snapshot(t)).toEqual(before);
    expect(fake.requests.length).toBe(requests);

    const paidCash = await pay(payment([line(w.cheap)], cash('5')));
    expect(paidCash.statusCode).toBe(200);
    expect(fake.requests.length).toBe(requests);
  });

  it.each([
    ['garbage', 502, 'gave no answer that could be read'],
    ['nothing within its deadline', 504, 'did not answer in time'],
  ])(
    'answers %s from the processor %i in the envelope, gives back the hold, and charges once on retry',
    async (what, status, message) => {
      const body = payment([line(w.retail)], creditCard());
      const key = `stripe-${status}`;
      const before = await snapshot(t);
      if (what === 'garbage') fake.garbageNext();
      else fake.silentNext();
      const failed = await pay(body, { 'idempotency-key': key });
      fake.releaseHeld();
      expect(failed.statusCode).toBe(status);
      expect(failed.json().meta).toMatchObject({
        status_code: status,
        message: expect.stringContaining(message),
      });
      expect(await snapshot(t)).toEqual(before);
      expect(await t.db.store.db.selectFrom('payment_holds').selectAll().execute()).toEqual([]);
      const captured = fake.captured().length;

      const retry = await pay(body, { 'idempotency-key': key });
      expect(retry.statusCode).toBe(200);
      // The failed attempt's intent was made, then voided: one charge kept in all.
      expect(fake.captured().length).toBe(captured + 1);
      expect((await snapshot(t)).payments).toBe((before.payments as number) + 1);
    },
  );
});

describeEachDialect('a charge held at the processor holds up no other write', (dialect) => {
  let fake: FakeStripe;
  let t: TestApp;
  let w: PaymentWorld;

  beforeAll(async () => {
    fake = await new FakeStripe('sk_test_facility_ops').start();
    t = await createTestApp(dialect, {
      env: {
        PAYMENT_PROCESSOR: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_facility_ops',
        STRIPE_API_URL: fake.url,
        // Far longer than the test can take: the charge is held until the test lets it go.
        PAYMENT_PROCESSOR_TIMEOUT_MS: '120000',
      },
    });
    w = await loadPaymentWorld(t);
    t.clock.set(PAY_AT);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('answers a note on the same facility while a charge is held at the processor', async () => {
    fake.holdNext();
    const charging = t.postJson(w.url, payment([line(w.cheap)], creditCard()));
    try {
      await fake.whenHolding();
      const note = await t.postJson(`/v1/${t.world.facility.id}/notes`, {
        note: { note_text: 'Written while a card is being charged', tenant_id: w.tenant.id },
      });
      expect(note.statusCode).toBe(200);
      // The charge is still held at the processor: the note did not wait for it.
      expect(fake.holding).toBe(true);
    } finally {
      fake.releaseHeld();
    }
    expect((await charging).statusCode).toBe(200);
  });
  it('settles a payment whose lease ran out from the processor, and the late request answers it', async () => {
    const db = t.db.store.db;
    const intents = fake.intents.length;
    fake.holdNext();
    const late = t.postJson(w.url, payment([line(w.retail)], creditCard()), { 'idempotency-key': 'late-1' });
    try {
      await fake.whenHolding();
      // The time a stopped process would leave behind: the attempt's lease has run out.
      await db.updateTable('payment_attempts').set({ lease_until: '2000-01-01T00:00:00.000Z' }).execute();
      expect(await t.services.payments.settleInDoubt()).toBe(1);
      expect(await db.selectFrom('payment_attempts').selectAll().execute()).toEqual([]);
    } finally {
      fake.releaseHeld();
    }
    const answer = await late;
    expect(answer.statusCode).toBe(200);
    const id = answer.json().successful_payment_event.id as string;
    expect(fake.intents.length).toBe(intents + 1);
    // Recorded once, and not voided by the request that came back late.
    expect(fake.captured().map((i) => i.metadata.facility_ops_payment_id)).toContain(id);
    const replay = await t.postJson(w.url, payment([line(w.retail)], creditCard()), {
      'idempotency-key': 'late-1',
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().successful_payment_event.id).toBe(id);
    expect(fake.intents.length).toBe(intents + 1);
  });
});

describe('a Stripe card payment traced', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: ActiveTracing;
  let fake: FakeStripe;
  let t: TestApp;
  let w: PaymentWorld;

  beforeAll(async () => {
    // Started before the store opens, as serve and start do.
    tracing = startTracing({ serviceName: 'facility-ops-test', exporter });
    fake = await new FakeStripe('sk_test_facility_ops').start();
    t = await createTestApp('sqlite', {
      env: {
        PAYMENT_PROCESSOR: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_facility_ops',
        STRIPE_API_URL: fake.url,
      },
    });
    w = await loadPaymentWorld(t);
    t.clock.set(PAY_AT);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await tracing.stop();
  });

  it('has no card number in any span', async () => {
    exporter.reset();
    const res = await t.postJson(w.url, payment([line(w.retail)], creditCard()), {
      'idempotency-key': 'traced-1',
    });
    expect(res.statusCode).toBe(200);
    // The request's span ends as its answer finishes.
    const deadline = Date.now() + 60_000;
    while (!exporter.getFinishedSpans().some((s) => s.attributes['http.request.method'] === 'POST')) {
      if (Date.now() > deadline) throw new Error('no request span');
      await new Promise((resolve) => setImmediate(resolve));
    }
    const spans = exporter.getFinishedSpans();
    expect(
      spans.some((s) => /insert into "payments"/i.test(String(s.attributes['db.query.text'] ?? ''))),
    ).toBe(true);
    const everything = JSON.stringify(
      spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })),
    );
    expect(everything).not.toContain(VISA);
    expect(fake.bodies.some((b) => b.includes(VISA))).toBe(true);
  });
});
