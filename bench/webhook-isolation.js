'use strict';
/**
 * How long company A waits for its webhook while ten endpoints of company B sleep: the built service
 * (`dist`, or `--dist <path>`, a build of another commit) on a temporary SQLite database, its outbox
 * worker started as `serve` starts it, every setting at its default. First A alone (three notes,
 * one after the other), then B's endpoints take their requests and answer only after `--sleep`
 * seconds (60), and A writes three more notes meanwhile. Each line is the time from writing A's note
 * to its delivery reaching A's receiver. `npm run build && node bench/webhook-isolation.js`.
 */
const { createServer } = require('node:http');
const { randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout, clearTimeout } = require('node:timers');
const { setTimeout: sleep } = require('node:timers/promises');
const { ROOT, PRODUCTION, log, fmt, loadAverage, parseOptions } = require('./common');

const options = parseOptions(process.argv.slice(2), {
  dist: path.join(ROOT, 'dist'),
  sleep: 60,
  endpoints: 10,
});

/** A receiver on a free loopback port; `delayMs` before each answer; `onRequest` hears each arrival. */
async function receiver(delayMs, onRequest = () => undefined) {
  const timers = new Set();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      onRequest(performance.now());
      const timer = setTimeout(() => {
        timers.delete(timer);
        response.writeHead(204).end();
      }, delayMs);
      timers.add(timer);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

const company = (name) => ({ id: randomUUID(), name });
const facility = (companyId, name) => ({
  id: randomUUID(),
  company_id: companyId,
  name,
  time_zone: 'America/New_York',
  tenant_payments_disabled: false,
});
const client = (companyId) => ({
  id: randomUUID(),
  company_id: companyId,
  name: 'Desk',
  consumer_key: randomBytes(12).toString('hex'),
  consumer_secret: randomBytes(24).toString('base64url'),
  bearer_token: randomBytes(24).toString('base64url'),
});

async function main() {
  const dist = options.dist;
  const need = (module) => require(path.join(dist, module));
  const { loadConfig } = need('config');
  const { openStore } = need('store/database');
  const { migrateToLatest } = need('store/migrator');
  const { importDataset } = need('store/dataset/dataset.import');
  const { DATASET_PLANS } = need('modules');
  const { buildApp } = need('app');
  const { startOutboxWorker } = need('outbox.runtime');

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-isolation-'));
  const config = loadConfig({
    ...PRODUCTION,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    DATABASE_URL: `sqlite:${path.join(scratch, 'ops.db')}`,
  });
  const store = openStore(config.databaseUrl);
  await migrateToLatest(store.db);
  const [a, b] = [company('A Storage'), company('B Storage')];
  const [facilityA, facilityB] = [facility(a.id, 'A Street'), facility(b.id, 'B Street')];
  const [clientA, clientB] = [client(a.id), client(b.id)];
  const [unitA, unitB] = [facilityA, facilityB].map((f) => ({
    id: randomUUID(),
    facility_id: f.id,
    name: '1',
    rate: 50,
  }));
  await importDataset(store, DATASET_PLANS, {
    version: 1,
    companies: [a, b],
    facilities: [facilityA, facilityB],
    client_applications: [clientA, clientB],
    units: [unitA, unitB],
  });
  const { app, services } = await buildApp({ config, store });
  const callerA = { clientId: clientA.id, companyId: a.id, name: 'A desk' };
  const callerB = { clientId: clientB.id, companyId: b.id, name: 'B desk' };
  const placeA = await services.facilities.facilityFor(callerA, facilityA.id);
  const placeB = await services.facilities.facilityFor(callerB, facilityB.id);

  let arrivedAtA = [];
  const hooksA = await receiver(0, (at) => arrivedAtA.push(at));
  await services.webhooks.createEndpoint(a.id, { url: hooksA.url, eventTypes: ['note.created'] });
  const running = startOutboxWorker(services, config);

  const until = async (done) => {
    while (!done()) await sleep(2);
  };
  /** Seconds from writing a note of A to its delivery at A's receiver. */
  const deliveryOfA = async () => {
    arrivedAtA = [];
    const start = performance.now();
    await services.notes.createNote(placeA, callerA, { noteText: 'A', unitId: unitA.id });
    await until(() => arrivedAtA.length > 0);
    return (arrivedAtA[0] - start) / 1000;
  };

  const alone = [];
  for (let i = 0; i < 3; i += 1) alone.push(await deliveryOfA());

  let openAtB = 0;
  const hooksB = [];
  for (let i = 0; i < options.endpoints; i += 1) {
    const hooks = await receiver(options.sleep * 1000, () => (openAtB += 1));
    hooksB.push(hooks);
    await services.webhooks.createEndpoint(b.id, { url: hooks.url, eventTypes: ['note.created'] });
  }
  await services.notes.createNote(placeB, callerB, { noteText: 'B', unitId: unitB.id });
  await until(() => openAtB >= options.endpoints);
  const beside = [];
  for (let i = 0; i < 3; i += 1) beside.push(await deliveryOfA());

  const stopping = performance.now();
  await running.stop();
  const stopSeconds = (performance.now() - stopping) / 1000;
  for (const hooks of [hooksA, ...hooksB]) await hooks.close();
  await app.close();
  await store.close();
  fs.rmSync(scratch, { recursive: true, force: true });

  const seconds = (values) => values.map((value) => `${fmt(value, 3)} s`).join(', ');
  const lines = [
    `webhook isolation: ${dist}, ${options.endpoints} endpoints of B sleeping ${options.sleep} s, ` +
      `WEBHOOK_TIMEOUT_MS ${config.webhooks.timeoutMs}, load ${loadAverage()}`,
    `A alone:                 ${seconds(alone)}`,
    `A while B's endpoints sleep: ${seconds(beside)}`,
    `stop() with B's requests open: ${fmt(stopSeconds, 3)} s`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  log(String(error.stack ?? error));
  process.exit(1);
});
