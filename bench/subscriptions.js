'use strict';
/* global fetch, performance, setTimeout, setInterval, clearInterval */
/**
 * `node bench/subscriptions.js` (after `npm run build`): GraphQL subscriptions under load. Seeds a
 * temporary SQLite database (one facility, a retail item, a tenant), starts the built service
 * (NODE_ENV=production, rate limit off) in a child process, opens N graphql-ws connections each
 * subscribed to the facility's activity, then makes a burst of P cash payments over REST (10 at a
 * time) and measures, for every payment and subscriber, the time from the payment's request to its
 * delivery, and the service's resident memory (VmRSS: before, with the subscribers, and its peak
 * during the burst). Prints a Markdown table (also written to bench/results/subscriptions.md).
 *
 * Options: --subscribers N (default 1000), --payments N (100), --concurrency N (10), --dist DIR
 * (the built service, default dist/), --keep. Unknown options throw.
 */
const { randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, PRODUCTION, fmt, log, parseOptions, startService } = require('./common');

function parseArgs(argv) {
  return parseOptions(argv, {
    subscribers: 1000,
    payments: 100,
    concurrency: 10,
    dist: path.join(ROOT, 'dist'),
    keep: false,
  });
}

async function seed(dist, file, payments) {
  const { openStore } = require(path.join(dist, 'store/database'));
  const { migrateToLatest } = require(path.join(dist, 'store/migrator'));
  const { importDataset } = require(path.join(dist, 'store/dataset/dataset.import'));
  const store = openStore(`sqlite:${file}`);
  await migrateToLatest(store.db);
  const companyId = randomUUID();
  const facilityId = randomUUID();
  const tenantId = randomUUID();
  const itemId = randomUUID();
  const token = randomBytes(24).toString('base64url');
  await importDataset(store, {
    version: 1,
    companies: [{ id: companyId, name: 'Bench Storage' }],
    facilities: [
      {
        id: facilityId,
        company_id: companyId,
        name: 'Main Street',
        time_zone: 'America/New_York',
        tenant_payments_disabled: false,
      },
    ],
    client_applications: [
      {
        id: randomUUID(),
        company_id: companyId,
        name: 'bench',
        consumer_key: randomBytes(12).toString('hex'),
        consumer_secret: randomBytes(24).toString('base64url'),
        bearer_token: token,
      },
    ],
    tenants: [
      {
        id: tenantId,
        facility_id: facilityId,
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: '+15555550100',
      },
    ],
    invoiceable_items: [
      {
        id: itemId,
        facility_id: facilityId,
        kind: 'retail',
        product_code: 'LOCK-1',
        description: 'Disc lock',
        short_description: null,
        required_at_move_in: false,
        required_at_transfer: false,
        show_in_sales_center: true,
        invoiceable_amounts: [{ id: randomUUID(), amount: 10, kind: 'amount', limit: null }],
        tax_total: 0.8,
        total: 10.8,
        quantity: payments * 10,
        is_rental_center_lock: false,
        rental_center_eligible: false,
      },
    ],
  });
  await store.close();
  return { facilityId, tenantId, itemId, token };
}

/** The service's resident memory, in MiB (Linux). */
function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
  return kib / 1024;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const ACTIVITY = `subscription Activity($facilityId: UUID!) {
  facilityActivity(facilityId: $facilityId, types: [PAYMENT_SUCCEEDED]) {
    ... on PaymentSucceeded { cursor payment { id amount } }
  }
}`;

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const { createClient } = require('graphql-ws');
  const WebSocket = require('ws');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-subscriptions-'));
  const file = path.join(dir, 'bench.db');
  const world = await seed(options.dist, file, options.payments);
  const { child, address } = await startService(options.dist, {
    ...PRODUCTION,
    DATABASE_URL: `sqlite:${file}`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    OUTBOX_WORKER: 'false',
    LIVE_SUBSCRIPTIONS_PER_CLIENT: String(options.subscribers),
  });
  const clients = [];
  try {
    const rssBefore = rssMiB(child.pid);
    /** Per payment id: when its request was sent (ms), and when each subscriber received it. */
    const sentAt = new Map();
    const latencies = [];
    let received = 0;
    let ready = 0;
    const wsUrl = `${address.replace(/^http/, 'ws')}/graphql`;
    for (let i = 0; i < options.subscribers; i++) {
      const client = createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        connectionParams: { Authorization: `Bearer ${world.token}` },
        retryAttempts: 0,
        lazy: false,
        on: { connected: () => (ready += 1) },
      });
      clients.push(client);
      client.subscribe(
        { query: ACTIVITY, variables: { facilityId: world.facilityId } },
        {
          next: (result) => {
            const at = performance.now();
            const id = result.data?.facilityActivity?.payment?.id;
            if (!id) throw new Error(`unexpected result ${JSON.stringify(result)}`);
            // The payment may arrive before its request's answer names it: matched after the burst.
            latencies.push({ id, at });
            received += 1;
          },
          error: (error) => log(`subscriber failed: ${JSON.stringify(error)}`),
          complete: () => undefined,
        },
      );
    }
    const started = Date.now();
    while (ready < options.subscribers) {
      if (Date.now() - started > 120_000)
        throw new Error(`only ${ready} of ${options.subscribers} connected`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Connected is not yet subscribed: a probe payment reaches every subscriber once all are.
    log(`${options.subscribers} connections open; waiting for every subscription`);
    const pay = async () => {
      const body = JSON.stringify({
        retail_payment: {
          tenant_id: world.tenantId,
          invoiceable_items: [{ invoiceable_item_id: world.itemId, quantity: 1 }],
        },
        payment_method: {
          first_name: 'Ada',
          last_name: 'Lovelace',
          kind: 'cash',
          amount_tendered: '100',
          billing_address_attributes: {},
        },
      });
      const at = performance.now();
      const res = await fetch(`${address}/v1/${world.facilityId}/invoiceable_items/retail_payment`, {
        method: 'POST',
        headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
        body,
      });
      const json = await res.json();
      if (res.status !== 200) throw new Error(`payment answered ${res.status}: ${JSON.stringify(json)}`);
      return { id: json.successful_payment_event.id, at, answeredAt: performance.now() };
    };
    const probe = await pay();
    while (latencies.filter((l) => l.id === probe.id).length < options.subscribers) {
      if (Date.now() - started > 240_000) throw new Error('the probe payment did not reach every subscriber');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    latencies.length = 0;
    received = 0;
    const rssSubscribed = rssMiB(child.pid);

    let rssPeak = rssSubscribed;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(child.pid))), 50);
    const requestTimes = [];
    let next = 0;
    const burstStarted = performance.now();
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < options.payments) {
          next += 1;
          const paid = await pay();
          sentAt.set(paid.id, paid.at);
          requestTimes.push(paid.answeredAt - paid.at);
        }
      }),
    );
    const expected = options.payments * options.subscribers;
    while (received < expected) {
      if (performance.now() - burstStarted > 300_000)
        throw new Error(`only ${received} of ${expected} deliveries`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const burstMs = performance.now() - burstStarted;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, rssMiB(child.pid));
    const delivery = latencies.map((l) => l.at - sentAt.get(l.id)).sort((a, b) => a - b);
    const requests = requestTimes.sort((a, b) => a - b);

    const lines = [
      `Subscriptions: ${fmt(options.subscribers)} graphql-ws subscribers of one facility, a burst of ${fmt(options.payments)} cash payments over REST (${options.concurrency} at a time), SQLite, ${os.cpus().length} cores`,
      '',
      '| deliveries | p50 ms | p99 ms | max ms | payment request p50 / p99 ms | burst to last delivery s | RSS before / subscribed / peak MiB |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      `| ${fmt(delivery.length)} | ${fmt(percentile(delivery, 50))} | ${fmt(percentile(delivery, 99))} | ${fmt(delivery.at(-1))} | ${fmt(percentile(requests, 50))} / ${fmt(percentile(requests, 99))} | ${fmt(burstMs / 1000, 1)} | ${fmt(rssBefore)} / ${fmt(rssSubscribed)} / ${fmt(rssPeak)} |`,
      '',
      'Delivery latency: from the payment request sent to the event received by a subscriber (it includes the payment itself).',
    ];
    const text = lines.join('\n');
    process.stdout.write(`${text}\n`);
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench/results/subscriptions.md'), `${text}\n`);
  } finally {
    await Promise.all(clients.map((client) => client.dispose()));
    child.kill('SIGTERM');
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
