'use strict';
/* global fetch, setTimeout, setInterval, clearInterval, URL */
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
 * node:http, bench/subscription-clients.js) that read each event's payment id and time it. By
 * default they run in the bench's own process, as they always did, so runs stay comparable; their
 * work (parsing every frame) then takes its share of the cores the service runs on, which remote
 * subscribers never do. `--clients-processes N` runs them in N child processes instead, and
 * `--clients-nice K` lowers those processes' priority (every thread's nice value), so the service
 * (and the payments' driver, which stays here at normal priority) gets the cores first, as it would
 * with its subscribers on other machines. Every time is read on CLOCK_MONOTONIC (process.hrtime),
 * one clock for every process of the machine on Linux, checked against each child before the run:
 * a receipt in a child is timed against the payment's answer here. Each subscriber must have
 * received each payment exactly once, wherever it ran. Prints a Markdown table (also written to
 * bench/results/subscriptions.md) that names where the clients ran and their processes' CPU.
 *
 * Options: --subscribers N (default 1000), --payments N (100), --concurrency N (10), --transport
 * ws|sse (ws), --store sqlite|postgres (sqlite), --instances N (1; more needs postgres),
 * --clients-processes N (none: in the bench's process), --clients-nice K (1-19; none), --dist DIR
 * (the built service, default dist/), --keep. Unknown options throw.
 */
const { fork } = require('node:child_process');
const { randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, PRODUCTION, fmt, loadAverage, log, parseOptions, startService } = require('./common');
const { Clients, CONNECTING_AT_ONCE, now } = require('./subscription-clients');

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function parseArgs(argv) {
  const options = parseOptions(argv, {
    subscribers: 1000,
    payments: 100,
    concurrency: 10,
    transport: 'ws',
    store: 'sqlite',
    instances: 1,
    'clients-processes': 0,
    'clients-nice': 0,
    dist: path.join(ROOT, 'dist'),
    keep: false,
  });
  if (options['clients-nice'] > 19) throw new Error('--clients-nice is 1 to 19');
  if (options['clients-nice'] > 0 && options['clients-processes'] === 0)
    throw new Error('--clients-nice needs --clients-processes');
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

/** The lowest nice value of a process's threads (Linux: each thread has its own). */
function niceOf(pid) {
  const nices = [];
  for (const thread of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
      nices.push(Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return Math.min(...nices);
}

/**
 * A clients' process (`--clients-processes`): bench/subscription-clients.js forked, running its share
 * of the subscribers, asked one thing at a time.
 */
class ClientsProcess {
  constructor(plan, nice) {
    this.plan = plan;
    this.nice = nice;
    this.child = fork(path.join(__dirname, 'subscription-clients.js'), [], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', resolve));
  }

  /** Sends `message` and resolves with the child's answer (its `error` rejects). */
  request(message) {
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      const onMessage = (reply) => {
        cleanup();
        if (reply.type === 'error') reject(new Error(`a clients' process: ${reply.message}`));
        else resolve(reply);
      };
      const onExit = (code) => {
        cleanup();
        reject(new Error(`a clients' process exited with ${code}`));
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send(message);
    });
  }

  /**
   * Checks that the child's clock is this process's: a reading it takes between two of ours must
   * fall between them, so the two clocks differ by less than that round trip. Resolves with the
   * shortest round trip of a few (the bound on their difference), in ms.
   */
  async checkClock() {
    let narrowest = Infinity;
    for (let i = 0; i < 5; i += 1) {
      const sent = now();
      const { at } = await this.request({ type: 'clock' });
      const received = now();
      if (!(sent <= at && at <= received))
        throw new Error(
          `a clients' process's clock read ${at}, outside this process's ${sent} to ${received}`,
        );
      narrowest = Math.min(narrowest, received - sent);
    }
    return narrowest;
  }

  async connect() {
    await this.request({ type: 'start', plan: this.plan, nice: this.nice });
    if (this.nice > 0 && niceOf(this.child.pid) < this.nice)
      throw new Error(`a clients' process runs at nice ${niceOf(this.child.pid)}, not ${this.nice}`);
  }

  async until(count, ms) {
    await this.request({ type: 'until', count, ms });
  }

  report(ids) {
    return this.request({ type: 'report', ids });
  }

  cpu() {
    return cpuSeconds(this.child.pid);
  }

  async close() {
    if (this.child.connected) this.child.send({ type: 'close' });
    await this.exited;
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const database = await createDatabase(options);
  const world = await seed(options.dist, database.url, options.payments * 3 + 50);
  const services = [];
  let fleet = [];
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
      const at = now();
      const res = await fetch(`${address}/v1/${world.facilityId}/invoiceable_items/retail_payment`, {
        method: 'POST',
        headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
        body,
      });
      const json = await res.json();
      if (res.status !== 200) throw new Error(`payment answered ${res.status}: ${JSON.stringify(json)}`);
      return { id: json.successful_payment_event.id, at, answeredAt: now() };
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

    // The subscribers: in this process, or shared out between the clients' processes.
    const plan = {
      addresses: services.map((service) => service.address),
      token: world.token,
      variables: { facilityId: world.facilityId },
      transport: options.transport,
    };
    const processes = options['clients-processes'];
    if (processes === 0) {
      fleet = [new Clients({ ...plan, from: 0, to: options.subscribers, atOnce: CONNECTING_AT_ONCE })];
    } else {
      const atOnce = Math.max(1, Math.ceil(CONNECTING_AT_ONCE / processes));
      fleet = Array.from({ length: processes }, (_, i) => {
        const from = Math.floor((options.subscribers * i) / processes);
        const to = Math.floor((options.subscribers * (i + 1)) / processes);
        return new ClientsProcess({ ...plan, from, to, atOnce }, options['clients-nice']);
      });
      const bounds = await Promise.all(fleet.map((clients) => clients.checkClock()));
      log(
        `${processes} clients' processes read this process's monotonic clock (within ${Math.max(...bounds).toFixed(3)} ms)`,
      );
    }
    const clientsCpu = () => fleet.reduce((sum, clients) => sum + (clients.cpu?.() ?? 0), 0);
    const started = Date.now();
    await Promise.all(fleet.map((clients) => clients.connect()));
    log(`${options.subscribers} subscribers connected in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Connected is not yet subscribed: a probe payment reaches every subscriber once all are (the
    // only event they are sent before the burst).
    const probe = await pay();
    await Promise.all(fleet.map((clients) => clients.until(1, 240_000)));
    // Idle: let the service settle before its memory is read.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssSubscribed = rss();

    let rssPeak = rssSubscribed;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss())), 50);
    const burstStarted = now();
    const cpuStarted = cpu();
    const clientsCpuStarted = clientsCpu();
    const benchCpuStarted = process.cpuUsage();
    const shared = await burst(options.payments);
    await Promise.all(fleet.map((clients) => clients.until(options.payments + 1, 300_000)));
    const cpuShared = cpu() - cpuStarted;
    const clientsCpuShared = clientsCpu() - clientsCpuStarted;
    const benchCpu = process.cpuUsage(benchCpuStarted);
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, rss());

    // Every subscriber's receipt of every payment (and of the probe): each exactly once.
    const ids = [probe.id, ...shared.map((payment) => payment.id)];
    const reports = await Promise.all(fleet.map((clients) => clients.report(ids)));
    const duplicates = reports.reduce((sum, r) => sum + r.duplicates, 0);
    const unexpected = reports.reduce((sum, r) => sum + r.unexpected, 0);
    const fromAnswer = [];
    const fromRequest = [];
    let missing = 0;
    let lastDelivery = burstStarted;
    for (const { times } of reports) {
      for (let s = 0; s < times.length; s += ids.length) {
        if (Number.isNaN(times[s])) missing += 1;
        shared.forEach((payment, e) => {
          const at = times[s + e + 1];
          if (Number.isNaN(at)) {
            missing += 1;
            return;
          }
          fromAnswer.push(at - payment.answeredAt);
          fromRequest.push(at - payment.at);
          lastDelivery = Math.max(lastDelivery, at);
        });
      }
    }
    if (missing > 0 || unexpected > 0)
      throw new Error(`${missing} receipts missing, ${unexpected} events no payment of the burst made`);
    const burstMs = lastDelivery - burstStarted;

    const sorted = (values) => values.sort((a, b) => a - b);
    sorted(fromAnswer);
    sorted(fromRequest);
    const requestsAlone = sorted(alone.map((p) => p.answeredAt - p.at));
    const requestsShared = sorted(shared.map((p) => p.answeredAt - p.at));
    const perSubscriptionKiB = ((rssSubscribed - rssBefore) * 1024) / options.subscribers;
    const where = `${options.store === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${options.instances} instance${options.instances > 1 ? 's' : ''}`;
    const clientsMode =
      processes === 0
        ? "in the bench's process"
        : `${processes} process${processes > 1 ? 'es' : ''}${options['clients-nice'] > 0 ? `, nice ${options['clients-nice']}` : ''}`;
    const lines = [
      `Subscriptions: ${fmt(options.subscribers)} ${options.transport === 'ws' ? 'graphql-ws' : 'SSE'} subscribers of one facility (clients ${clientsMode}), a burst of ${fmt(options.payments)} cash payments over REST (${options.concurrency} at a time), ${where}, ${os.cpus().length} cores, load average ${loadAverage()} at the end`,
      '',
      "| clients | deliveries (duplicates) | from answer p50 / p99 / max ms | from request p50 / p99 ms | payments alone p50 / p99 ms | payments with subscribers p50 / p99 ms | burst to last delivery s | service CPU s alone / with subscribers (bench process) | clients' processes CPU s | KiB per idle subscription | RSS before / subscribed / peak MiB |",
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      `| ${clientsMode} | ${fmt(fromAnswer.length)} (${duplicates}) | ${fmt(percentile(fromAnswer, 50))} / ${fmt(percentile(fromAnswer, 99))} / ${fmt(fromAnswer.at(-1))} | ${fmt(percentile(fromRequest, 50))} / ${fmt(percentile(fromRequest, 99))} | ${fmt(percentile(requestsAlone, 50))} / ${fmt(percentile(requestsAlone, 99))} | ${fmt(percentile(requestsShared, 50))} / ${fmt(percentile(requestsShared, 99))} | ${fmt(burstMs / 1000, 1)} | ${fmt(cpuAlone, 1)} / ${fmt(cpuShared, 1)} (${fmt((benchCpu.user + benchCpu.system) / 1e6, 1)}) | ${processes === 0 ? '(in the bench process)' : fmt(clientsCpuShared, 1)} | ${fmt(perSubscriptionKiB, 1)} | ${fmt(rssBefore)} / ${fmt(rssSubscribed)} / ${fmt(rssPeak)} |`,
      '',
      "From answer: from the payment's REST answer to the event's receipt by a subscriber (negative when the event came first); from request: from the payment's request sent. CPU: user + system time during the burst and its delivery; the bench process's own (the payments, and the subscribers when they run in it) in brackets.",
    ];
    const text = lines.join('\n');
    process.stdout.write(`${text}\n`);
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench/results/subscriptions.md'), `${text}\n`);
  } finally {
    await Promise.all(fleet.map((clients) => clients.close()));
    for (const { child } of services) child.kill('SIGTERM');
    await Promise.all(services.map(({ child }) => new Promise((resolve) => child.once('exit', resolve))));
    if (!options.keep) await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
