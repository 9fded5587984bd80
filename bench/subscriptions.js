'use strict';
/* global fetch, performance, setTimeout, setInterval, clearInterval, URL */
/**
 * `node bench/subscriptions.js` (after `npm run build`): GraphQL subscriptions under load. Seeds a
 * database (one facility, a retail item, a tenant: a temporary SQLite file, or with `--store
 * postgres` a database of its own at TEST_POSTGRES_URL's server), starts the built service
 * (NODE_ENV=production, rate limit off) in a child process (`--instances 2`: two, sharing the
 * PostgreSQL database and the subscribers half and half), and measures:
 *
 * 1. the payments alone: a warm-up, then a burst of P cash payments over REST (10 at a time) with no
 *    subscriber, the payments' own latency;
 * 2. N subscribers of the facility's activity (graphql-ws, or `--transport sse`), one connection
 *    each, all of one client application: the memory each idle subscription takes (the service's
 *    VmRSS with them, less before them, over N);
 * 3. the same burst again with them: the payments' latency, and for every payment and subscriber
 *    the time from the payment's answer (and from its request) to its receipt, checking that every
 *    subscriber received every payment exactly once.
 *
 * The subscribers are bare protocol clients (graphql-transport-ws over `ws`, or SSE over
 * node:http) that read each event's payment id and time it, so the bench process spends as little
 * as it can of the machine the service shares. Prints a Markdown table (also written to
 * bench/results/subscriptions.md).
 *
 * Options: --subscribers N (default 1000), --payments N (100), --concurrency N (10), --transport
 * ws|sse (ws), --store sqlite|postgres (sqlite), --instances N (1; more needs postgres), --dist DIR
 * (the built service, default dist/), --keep. Unknown options throw.
 */
const http = require('node:http');
const { randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, PRODUCTION, fmt, loadAverage, log, parseOptions, startService } = require('./common');

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function parseArgs(argv) {
  const options = parseOptions(argv, {
    subscribers: 1000,
    payments: 100,
    concurrency: 10,
    transport: 'ws',
    store: 'sqlite',
    instances: 1,
    dist: path.join(ROOT, 'dist'),
    keep: false,
  });
  if (!['ws', 'sse'].includes(options.transport)) throw new Error('--transport is ws or sse');
  if (!['sqlite', 'postgres'].includes(options.store)) throw new Error('--store is sqlite or postgres');
  if (options.instances > 1 && options.store !== 'postgres')
    throw new Error('--instances 2 needs --store postgres');
  return options;
}

/** A database of the bench's own: its URL, and how to drop it. */
async function createDatabase(options) {
  if (options.store === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-subscriptions-'));
    return {
      url: `sqlite:${path.join(dir, 'bench.db')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const { Client } = require('pg');
  const name = `bench_subscriptions_${Date.now()}`;
  const admin = async (statement) => {
    const client = new Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database ${name} with (force)`) };
}

async function seed(dist, url, payments) {
  const { openStore } = require(path.join(dist, 'store/database'));
  const { migrateToLatest } = require(path.join(dist, 'store/migrator'));
  const { importDataset } = require(path.join(dist, 'store/dataset/dataset.import'));
  const { DATASET_PLANS } = require(path.join(dist, 'modules'));
  const store = openStore(url);
  await migrateToLatest(store.db);
  const companyId = randomUUID();
  const facilityId = randomUUID();
  const tenantId = randomUUID();
  const itemId = randomUUID();
  const token = randomBytes(24).toString('base64url');
  await importDataset(store, DATASET_PLANS, {
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
        quantity: payments * 10 + 100,
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

/** The CPU time the service has used so far (user and system), in seconds (Linux). */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const ACTIVITY = `subscription Activity($facilityId: UUID!) {
  facilityActivity(facilityId: $facilityId, types: [PAYMENT_SUCCEEDED]) {
    ... on PaymentSucceeded { cursor payment { id amount } }
  }
}`;

const PAYMENT_ID = /"payment":\{"id":"([^"]+)"/;

/**
 * One subscriber's receipts: per payment id, when it arrived (ms, performance.now()), and how many
 * times (more than once is a failure the report names).
 */
class Receipts {
  constructor() {
    this.at = new Map();
    this.duplicates = 0;
    this.count = 0;
  }

  note(text) {
    const match = PAYMENT_ID.exec(text);
    if (!match) throw new Error(`unexpected event ${text.slice(0, 200)}`);
    if (this.at.has(match[1])) this.duplicates += 1;
    else this.at.set(match[1], performance.now());
    this.count += 1;
  }
}

/** A graphql-transport-ws subscriber over a bare WebSocket: resolves once its subscribe is sent. */
function wsSubscriber(address, token, variables, receipts, failed) {
  const WebSocket = require('ws');
  const socket = new WebSocket(`${address.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', {
    perMessageDeflate: false,
  });
  return new Promise((resolve, reject) => {
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } })),
    );
    socket.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('{"id"') && text.includes('"type":"next"')) return receipts.note(text);
      const message = JSON.parse(text);
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: ACTIVITY, variables } }));
        resolve({ close: () => socket.terminate() });
      } else if (message.type === 'ping') socket.send('{"type":"pong"}');
      else failed(`subscriber got ${text.slice(0, 300)}`);
    });
    socket.on('error', reject);
    socket.on('close', (code, reason) => failed(`a subscriber's connection closed ${code} ${reason}`));
  });
}

/** A GraphQL-over-SSE subscriber over node:http: resolves once the stream answered 200. */
function sseSubscriber(address, token, variables, receipts, failed) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${address}/graphql`, {
      method: 'POST',
      agent: false,
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      },
    });
    request.on('response', (response) => {
      if (response.statusCode !== 200) return reject(new Error(`SSE answered ${response.statusCode}`));
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.includes('event: next')) receipts.note(block);
          else if (block.includes('event: complete')) failed('a stream completed');
        }
      });
      response.on('end', () => failed('a stream ended'));
      resolve({ close: () => request.destroy() });
    });
    request.on('error', reject);
    request.end(JSON.stringify({ query: ACTIVITY, variables }));
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const database = await createDatabase(options);
  const world = await seed(options.dist, database.url, options.payments * 3 + 50);
  const services = [];
  const subscribers = [];
  try {
    for (let i = 0; i < options.instances; i += 1) {
      services.push(
        await startService(options.dist, {
          ...PRODUCTION,
          DATABASE_URL: database.url,
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MINUTE: '0',
          OUTBOX_WORKER: 'false',
          LIVE_SUBSCRIPTIONS_PER_CLIENT: String(options.subscribers),
          LIVE_CONNECTIONS_PER_CLIENT: String(options.subscribers),
        }),
      );
    }
    const rss = () => services.reduce((sum, service) => sum + rssMiB(service.child.pid), 0);
    const cpu = () => services.reduce((sum, service) => sum + cpuSeconds(service.child.pid), 0);
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
    let paid = 0;
    const pay = async () => {
      const { address } = services[paid++ % services.length];
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
    /** P payments, `concurrency` at a time: each one's id, request and answer times. */
    const burst = async (count) => {
      const done = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (next < count) {
            next += 1;
            done.push(await pay());
          }
        }),
      );
      return done;
    };

    await burst(20);
    const cpuAloneStarted = cpu();
    const alone = await burst(options.payments);
    const cpuAlone = cpu() - cpuAloneStarted;
    const rssBefore = rss();

    const failures = [];
    const failed = (why) => failures.length < 5 && failures.push(why);
    const receipts = Array.from({ length: options.subscribers }, () => new Receipts());
    const subscribe = options.transport === 'ws' ? wsSubscriber : sseSubscriber;
    const variables = { facilityId: world.facilityId };
    const started = Date.now();
    // A few hundred at a time: a real fleet of screens does not connect in one instant either.
    for (let i = 0; i < options.subscribers; i += 200) {
      subscribers.push(
        ...(await Promise.all(
          receipts
            .slice(i, i + 200)
            .map((r, k) =>
              subscribe(services[(i + k) % services.length].address, world.token, variables, r, failed),
            ),
        )),
      );
    }
    log(`${options.subscribers} subscribers connected in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Connected is not yet subscribed: a probe payment reaches every subscriber once all are.
    const probe = await pay();
    const waitFor = async (what, condition, ms) => {
      const since = Date.now();
      while (!condition()) {
        if (failures.length > 0) throw new Error(failures.join('; '));
        if (Date.now() - since > ms) throw new Error(`waited ${ms} ms for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await waitFor('the probe at every subscriber', () => receipts.every((r) => r.at.has(probe.id)), 240_000);
    // Idle: let the service settle before its memory is read.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssSubscribed = rss();

    let rssPeak = rssSubscribed;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss())), 50);
    const burstStarted = performance.now();
    const cpuStarted = cpu();
    const benchCpuStarted = process.cpuUsage();
    const shared = await burst(options.payments);
    await waitFor(
      'every payment at every subscriber',
      () => receipts.every((r) => r.at.size === options.payments + 1),
      300_000,
    );
    const burstMs = performance.now() - burstStarted;
    const cpuShared = cpu() - cpuStarted;
    const benchCpu = process.cpuUsage(benchCpuStarted);
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, rss());
    if (failures.length > 0) throw new Error(failures.join('; '));
    const duplicates = receipts.reduce((sum, r) => sum + r.duplicates, 0);

    const fromAnswer = [];
    const fromRequest = [];
    for (const payment of shared) {
      for (const r of receipts) {
        const at = r.at.get(payment.id);
        fromAnswer.push(at - payment.answeredAt);
        fromRequest.push(at - payment.at);
      }
    }
    const sorted = (values) => values.sort((a, b) => a - b);
    sorted(fromAnswer);
    sorted(fromRequest);
    const requestsAlone = sorted(alone.map((p) => p.answeredAt - p.at));
    const requestsShared = sorted(shared.map((p) => p.answeredAt - p.at));
    const perSubscriptionKiB = ((rssSubscribed - rssBefore) * 1024) / options.subscribers;
    const where = `${options.store === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${options.instances} instance${options.instances > 1 ? 's' : ''}`;
    const lines = [
      `Subscriptions: ${fmt(options.subscribers)} ${options.transport === 'ws' ? 'graphql-ws' : 'SSE'} subscribers of one facility, a burst of ${fmt(options.payments)} cash payments over REST (${options.concurrency} at a time), ${where}, ${os.cpus().length} cores, load average ${loadAverage()} at the end`,
      '',
      '| deliveries (duplicates) | from answer p50 / p99 / max ms | from request p50 / p99 ms | payments alone p50 / p99 ms | payments with subscribers p50 / p99 ms | burst to last delivery s | service CPU s alone / with subscribers (bench process) | KiB per idle subscription | RSS before / subscribed / peak MiB |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      `| ${fmt(fromAnswer.length)} (${duplicates}) | ${fmt(percentile(fromAnswer, 50))} / ${fmt(percentile(fromAnswer, 99))} / ${fmt(fromAnswer.at(-1))} | ${fmt(percentile(fromRequest, 50))} / ${fmt(percentile(fromRequest, 99))} | ${fmt(percentile(requestsAlone, 50))} / ${fmt(percentile(requestsAlone, 99))} | ${fmt(percentile(requestsShared, 50))} / ${fmt(percentile(requestsShared, 99))} | ${fmt(burstMs / 1000, 1)} | ${fmt(cpuAlone, 1)} / ${fmt(cpuShared, 1)} (${fmt((benchCpu.user + benchCpu.system) / 1e6, 1)}) | ${fmt(perSubscriptionKiB, 1)} | ${fmt(rssBefore)} / ${fmt(rssSubscribed)} / ${fmt(rssPeak)} |`,
      '',
      "From answer: from the payment's REST answer to the event's receipt by a subscriber (negative when the event came first); from request: from the payment's request sent.",
    ];
    const text = lines.join('\n');
    process.stdout.write(`${text}\n`);
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench/results/subscriptions.md'), `${text}\n`);
  } finally {
    for (const subscriber of subscribers) subscriber.close();
    for (const { child } of services) child.kill('SIGTERM');
    await Promise.all(services.map(({ child }) => new Promise((resolve) => child.once('exit', resolve))));
    if (!options.keep) await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
