// PDF rendering benchmark (not a test): `node bench/pdf.js [iterations]`.
// Renders a one-page and a two-page document straight through the renderer, then downloads a
// document end to end (GET /v1/:facility_id/documents/:id on in-memory SQLite), and prints
// mean / p50 / p99 / max per case against the 50 ms target.
require('../scripts/swc-register');
require('reflect-metadata');
const { randomUUID } = require('node:crypto');
const { renderPdf } = require('../src/adapters/pdf/pdfkit.renderer');
const { fillTemplate } = require('../src/kernel/templates');
const { MOVE_IN_TEMPLATES } = require('../src/areas/move-ins/move-in.templates');
const { buildApp } = require('../src/app');
const { loadConfig } = require('../src/config');
const { openStore } = require('../src/store/database');
const { migrateToLatest } = require('../src/store/migrator');
const { importDataset } = require('../src/store/dataset/dataset.import');
const { DATASET_PLANS } = require('../src/modules');

const TARGET_MS = 50;
const iterations = Number(process.argv[2] ?? 300);
const warmup = 100;

const values = {
  tenant_name: 'Ada Lovelace',
  unit_name: 'A-101',
  facility_name: 'Main Street Storage',
  date: '2026-07-10',
  move_in_date: '2026-07-10',
  rent: '99.50',
  move_in_charges: "    First month's rent: 99.50\n    Admin fee: 26.50\n    Security deposit: 50.00",
  total: '176.00',
};
const onePage = fillTemplate(MOVE_IN_TEMPLATES[0].body, values);
const clause = (i) =>
  `${i}. The Tenant shall keep unit {{unit_name}} clean and locked, shall not store anything hazardous, ` +
  'and shall tell the office at once of any damage, leak or pest; the Facility may enter on notice.';
const twoPages = fillTemplate(Array.from({ length: 22 }, (_, i) => clause(i + 1)).join('\n\n'), values);

async function measure(label, run) {
  for (let i = 0; i < warmup; i++) await run();
  const times = [];
  let bytes = 0;
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    bytes = await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { label, mean, p50: at(0.5), p99: at(0.99), max: times[times.length - 1], bytes };
}

async function endToEnd() {
  const store = openStore('sqlite::memory:');
  await migrateToLatest(store.db);
  const companyId = randomUUID();
  const facilityId = randomUUID();
  const tenantId = randomUUID();
  const unitId = randomUUID();
  const ledgerId = randomUUID();
  const eventId = randomUUID();
  const documentId = randomUUID();
  const token = 'bench-token-0123456789abcdef';
  await importDataset(store, DATASET_PLANS, {
    version: 1,
    companies: [{ id: companyId, name: 'Acme Storage' }],
    facilities: [
      { id: facilityId, company_id: companyId, name: 'Main Street Storage', time_zone: 'America/New_York' },
    ],
    client_applications: [
      {
        id: randomUUID(),
        company_id: companyId,
        name: 'Bench',
        consumer_key: 'bench-consumer-key-0001',
        consumer_secret: 'bench-consumer-secret-0001',
        bearer_token: token,
      },
    ],
    tenants: [{ id: tenantId, facility_id: facilityId, first_name: 'Ada', last_name: 'Lovelace' }],
    units: [{ id: unitId, facility_id: facilityId, name: 'A-101', rate: 99.5 }],
    ledgers: [{ id: ledgerId, facility_id: facilityId, tenant_id: tenantId, unit_id: unitId }],
    events: [
      {
        id: eventId,
        facility_id: facilityId,
        type: 'move_in_unit_event',
        ledger_id: ledgerId,
        created_at: '2026-07-10T15:00:00Z',
      },
    ],
    event_documents: [
      {
        id: documentId,
        event_id: eventId,
        description: 'Rental agreement',
        created_at: '2026-07-10T15:00:00Z',
        body: MOVE_IN_TEMPLATES[0].body,
      },
    ],
  });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0' });
  const { app } = await buildApp({ config, store });
  await app.ready();
  const url = `/v1/${facilityId}/documents/${documentId}`;
  const result = await measure('GET /documents/:id (SQLite, in-process)', async () => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`);
    return res.rawPayload.length;
  });
  await app.close();
  await store.close();
  return result;
}

async function main() {
  const createdAt = new Date('2026-07-10T15:00:00Z');
  const results = [
    await measure(
      'render, 1 page (rental agreement)',
      async () =>
        (
          await renderPdf({
            header: 'Main Street Storage',
            title: 'Rental agreement',
            body: onePage,
            createdAt,
          })
        ).length,
    ),
    await measure(
      'render, 2 pages (22 clauses)',
      async () =>
        (await renderPdf({ header: 'Main Street Storage', title: 'Rules', body: twoPages, createdAt }))
          .length,
    ),
    await endToEnd(),
  ];
  const fmt = (n) => n.toFixed(2).padStart(8);
  console.log(
    `PDF benchmark: ${iterations} runs per case after ${warmup} warm-up runs (node ${process.version})`,
  );
  console.log(
    `${'case'.padEnd(42)}${'mean ms'.padStart(8)}${'p50'.padStart(8)}${'p99'.padStart(8)}${'max'.padStart(8)}  bytes`,
  );
  for (const r of results) {
    console.log(`${r.label.padEnd(42)}${fmt(r.mean)}${fmt(r.p50)}${fmt(r.p99)}${fmt(r.max)}  ${r.bytes}`);
  }
  const slow = results.filter((r) => r.p99 >= TARGET_MS);
  console.log(
    slow.length === 0
      ? `every p99 is under the ${TARGET_MS} ms target`
      : `over ${TARGET_MS} ms at p99: ${slow.map((r) => r.label).join(', ')}`,
  );
  process.exitCode = slow.length === 0 ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
