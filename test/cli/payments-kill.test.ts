import path from 'node:path';
import { openStore } from '../../src/store/database';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import { migrateToLatest } from '../../src/store/migrator';
import { FakeStripe } from '../support/fake-stripe';
import { buildItem, buildWorld, worldDataset, type World } from '../support/factories';
import { compileService, startService, type ServiceProcess } from '../support/service-process';
import { creditCard, line, payment } from '../support/payments';
import { tempDir } from './cli-support';

const KEY = 'sk_test_facility_ops';

/**
 * kill -9 of the real service (bin/facility-ops.js serve, a child process) in the middle of a
 * Stripe payment, at either point where the charge may have been made without its record; then a
 * restart and a retry under the same Idempotency-Key: one payment, one charge (the fake counts
 * the PaymentIntents).
 */
describe('a payment whose process is killed (kill -9) between its charge and its record', () => {
  let scratch: ReturnType<typeof tempDir>;
  let bin: string;
  let fake: FakeStripe;
  const running: ServiceProcess[] = [];

  beforeAll(async () => {
    scratch = tempDir();
    bin = compileService(scratch.dir);
    fake = await new FakeStripe(KEY).start();
  }, 300_000);
  afterAll(async () => {
    for (const service of running) service.child.kill('SIGKILL');
    await fake?.close();
    scratch?.remove();
  });

  /** A database of its own with the world and a retail item of 10 in stock. */
  async function world(name: string) {
    const databaseUrl = `sqlite:${path.join(scratch.dir, `${name}.db`)}`;
    const store = openStore(databaseUrl);
    const w: World = buildWorld();
    const item = buildItem({ facility_id: w.facility.id, quantity: 10 });
    try {
      await migrateToLatest(store.db);
      await importDataset(store, DATASET_PLANS, worldDataset(w));
      await importDataset(store, DATASET_PLANS, { version: 1, invoiceable_items: [item] });
    } finally {
      await store.close();
    }
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      PORT: '0',
      PAYMENT_PROCESSOR: 'stripe',
      STRIPE_SECRET_KEY: KEY,
      STRIPE_API_URL: fake.url,
      // Longer than the test: the kill, not a deadline, ends the first attempt.
      PAYMENT_PROCESSOR_TIMEOUT_MS: '60000',
    };
    const read = async () => {
      const db = openStore(databaseUrl);
      try {
        const payments = await db.db.selectFrom('payments').select('id').execute();
        const attempts = await db.db.selectFrom('payment_attempts').select('id').execute();
        const stock = await db.db
          .selectFrom('invoiceable_items')
          .select('quantity')
          .where('id', '=', item.id)
          .executeTakeFirstOrThrow();
        return { payments: payments.length, attempts: attempts.length, stock: stock.quantity };
      } finally {
        await db.close();
      }
    };
    /** What a stopped process leaves once its lease has run out: the time that passes before a restart. */
    const leaseRunsOut = async () => {
      const db = openStore(databaseUrl);
      try {
        await db.db
          .updateTable('payment_attempts')
          .set({ lease_until: '2000-01-01T00:00:00.000Z' })
          .execute();
      } finally {
        await db.close();
      }
    };
    const pay = (service: ServiceProcess) =>
      fetch(`${service.url}/v1/${w.facility.id}/invoiceable_items/retail_payment`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${w.client.bearer_token}`,
          'content-type': 'application/json',
          'idempotency-key': `kill-${name}`,
        },
        body: JSON.stringify(payment([line(item, 1)], creditCard())),
      });
    return { env, read, leaseRunsOut, pay };
  }

  const start = async (env: NodeJS.ProcessEnv) => {
    const service = await startService(bin, env);
    running.push(service);
    return service;
  };

  const kill9 = async (service: ServiceProcess) => {
    service.child.kill('SIGKILL');
    await service.exited;
  };

  it('killed while the processor is answering: the retry records that charge, and charges no other', async () => {
    const w = await world('during-call');
    const intents = fake.intents.length;
    const first = await start(w.env);
    fake.holdNext();
    const lost = w.pay(first).catch(() => null);
    await fake.whenHolding();
    await kill9(first);
    fake.releaseHeld();
    await lost;
    expect(await w.read()).toMatchObject({ payments: 0, attempts: 1, stock: 10 });
    expect(fake.intents.length).toBe(intents + 1);

    await w.leaseRunsOut();
    const second = await start(w.env);
    try {
      const retry = await w.pay(second);
      expect(retry.status).toBe(200);
      const body = (await retry.json()) as { successful_payment_event: { id: string; amount: number } };
      expect(body.successful_payment_event.amount).toBe(10.8);
      expect(fake.intents.length).toBe(intents + 1);
      expect(fake.intents.at(-1)!.metadata.facility_ops_payment_id).toBe(body.successful_payment_event.id);
      expect(fake.captured().filter((i) => i.id === fake.intents.at(-1)!.id)).toHaveLength(1);
      expect(await w.read()).toEqual({ payments: 1, attempts: 0, stock: 9 });
      // And again: the same answer, nothing more.
      const again = await w.pay(second);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(fake.intents.length).toBe(intents + 1);
    } finally {
      await kill9(second);
    }
  }, 180_000);

  it('killed after the charge and before its record: the next start records it, and the retry answers it', async () => {
    const w = await world('before-record');
    const intents = fake.intents.length;
    const first = await start({ ...w.env, FACILITY_OPS_TEST_HOLD_BEFORE_RECORD: '1' });
    const lost = w.pay(first).catch(() => null);
    await first.stderrLine(/charged, holding before its record/);
    await kill9(first);
    await lost;
    expect(await w.read()).toMatchObject({ payments: 0, attempts: 1, stock: 10 });
    expect(fake.intents.length).toBe(intents + 1);

    await w.leaseRunsOut();
    const second = await start(w.env);
    try {
      // The sweeper run at start settles it, with no request asking.
      for (let state = await w.read(); state.attempts > 0; state = await w.read()) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await w.read()).toEqual({ payments: 1, attempts: 0, stock: 9 });
      const retry = await w.pay(second);
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(fake.intents.length).toBe(intents + 1);
      expect(fake.captured().filter((i) => i.id === fake.intents.at(-1)!.id)).toHaveLength(1);
      expect(await w.read()).toEqual({ payments: 1, attempts: 0, stock: 9 });
    } finally {
      await kill9(second);
    }
  }, 180_000);
});
