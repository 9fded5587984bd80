'use strict';
/**
 * What one claim of the outbox costs with a backlog: `--backlog` (20000) due webhook deliveries
 * spread over 20 endpoints, claimed 50 at a time under the per-endpoint cap of 2 (the first claim
 * fills every endpoint's cap, the next ones find all of them at it) and without a cap, on SQLite in
 * memory and, with `--store postgres`, in a schema of its own at TEST_POSTGRES_URL
 * (postgres://postgres@127.0.0.1:5432/test), analyzed as autovacuum would. Built service (`dist`).
 */
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { ROOT, fmt, loadAverage, parseOptions } = require('./common');

const options = parseOptions(process.argv.slice(2), {
  dist: path.join(ROOT, 'dist'),
  store: 'sqlite',
  backlog: 20000,
});
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function main() {
  const need = (module) => require(path.join(options.dist, module));
  const { openStore } = need('store/database');
  const { migrateToLatest } = need('store/migrator');
  const { importDataset } = need('store/dataset/dataset.import');
  const { DATASET_PLANS } = need('modules');
  const { SqlOutboxRepository } = need('areas/outbox/outbox.repository');
  const { sql } = require('kysely');
  const { Client } = require('pg');

  let store;
  let cleanup = async () => undefined;
  if (options.store === 'postgres') {
    const schema = `bench_claims_${Date.now()}`;
    const admin = new Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    store = openStore(POSTGRES_URL, { pgSchema: schema });
    await migrateToLatest(store.db, { schema });
    cleanup = async () => {
      const client = new Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    };
  } else {
    store = openStore('sqlite::memory:');
    await migrateToLatest(store.db);
  }
  const company = { id: randomUUID(), name: 'C' };
  const facility = {
    id: randomUUID(),
    company_id: company.id,
    name: 'F',
    time_zone: 'UTC',
    tenant_payments_disabled: false,
  };
  await importDataset(store, DATASET_PLANS, { version: 1, companies: [company], facilities: [facility] });
  const endpoints = Array.from({ length: 20 }, () => randomUUID());
  const start = Date.parse('2026-01-01T00:00:00Z');
  const rows = Array.from({ length: options.backlog }, (_, i) => {
    const at = new Date(start + i).toISOString();
    return {
      id: randomUUID(),
      facility_id: facility.id,
      event_id: null,
      channel: 'webhook',
      recipient: endpoints[i % endpoints.length],
      payload: '{"kind":"webhook","type":"note.created","body":"{}"}',
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      claimed_by: null,
      claimed_until: null,
      last_error: null,
      created_at: at,
      sent_at: null,
      response_code: null,
    };
  });
  for (let i = 0; i < rows.length; i += 500) {
    await store.db
      .insertInto('outbox_messages')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  if (options.store === 'postgres') await sql`analyze outbox_messages`.execute(store.db);

  const repository = new SqlOutboxRepository(store.db);
  const claim = async (perRecipient) => {
    const begun = performance.now();
    const claimed = await repository.claimDue({
      workerId: 'bench',
      now: '2027-01-01T00:00:00.000Z',
      leaseUntil: '2027-01-01T00:05:00.000Z',
      channels: ['webhook'],
      limit: 50,
      perRecipient,
    });
    return `${claimed.length} claimed in ${fmt(performance.now() - begun, 1)} ms`;
  };
  const lines = [
    `outbox claims: ${options.store}, ${options.backlog} due webhook deliveries over 20 endpoints, load ${loadAverage()}`,
    `capped, filling every cap: ${await claim(2)}`,
    `capped, every endpoint at its cap: ${await claim(2)}, ${await claim(2)}`,
    `uncapped: ${await claim(undefined)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await store.close();
  await cleanup();
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
