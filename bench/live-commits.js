'use strict';
/**
 * What numbering live events in commit order costs on PostgreSQL: `--workers` (8) writers, each
 * committing transactions that write one live event the way the services do (`insertWebhookEvents`),
 * for `--duration` (5) seconds, with the journal's commit-order trigger (the latest schema) and
 * without it (that one migration taken down: numbers taken at insert, and notified by the writer as
 * it did before the trigger), alternating for `--rounds`
 * (3) rounds in one schema of its own at TEST_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test).
 * Prints commits a second and the median commit time of each. Built service (`dist`).
 */
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { ROOT, fmt, loadAverage, median, parseOptions } = require('./common');

const options = parseOptions(process.argv.slice(2), {
  dist: path.join(ROOT, 'dist'),
  workers: 8,
  duration: 5,
  rounds: 3,
});
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function main() {
  const need = (module) => require(path.join(options.dist, module));
  const { openStore } = need('store/database');
  const { migrateDown, migrateToLatest, MIGRATION_NAMES } = need('store/migrator');
  const { insertWebhookEvents } = need('areas/webhooks/webhook-events.writer');
  const { Client } = require('pg');
  const { sql } = require('kysely');
  if (MIGRATION_NAMES.at(-1) !== '20261128100000_live_events_commit_order') {
    throw new Error('the commit-order numbering is not the latest migration: this bench takes it down');
  }

  const schema = `bench_live_${Date.now()}`;
  const admin = new Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const store = openStore(POSTGRES_URL, { pgSchema: schema });
  try {
    await migrateToLatest(store.db, { schema });
    const facilityId = randomUUID();
    const event = () => ({
      type: 'note.created',
      facilityId,
      eventId: randomUUID(),
      occurredAt: new Date().toISOString(),
      body: '{"type":"note.created","timestamp":"2026-11-28T10:00:00Z","data":{}}',
    });
    // With the trigger, it numbers and notifies; without it, the writer did both itself, as here.
    const writers = {
      'numbered at commit': () =>
        store.db.transaction().execute((trx) => insertWebhookEvents(trx, [event()])),
      'numbered at insert': () =>
        store.db.transaction().execute(async (trx) => {
          await insertWebhookEvents(trx, [event()]);
          await sql`select pg_notify('facility_ops_live:' || current_schema(), currval('live_events_seq_seq')::text)`.execute(
            trx,
          );
        }),
    };
    const measure = async (writeOne) => {
      const ends = performance.now() + options.duration * 1000;
      const times = [];
      await Promise.all(
        Array.from({ length: options.workers }, async () => {
          while (performance.now() < ends) {
            const begun = performance.now();
            await writeOne();
            times.push(performance.now() - begun);
          }
        }),
      );
      return { rate: times.length / options.duration, median: median(times) };
    };
    const sides = { 'numbered at commit': [], 'numbered at insert': [] };
    await measure(writers['numbered at commit']); // warm-up
    for (let round = 0; round < options.rounds; round++) {
      const order =
        round % 2 === 0
          ? ['numbered at commit', 'numbered at insert']
          : ['numbered at insert', 'numbered at commit'];
      for (const side of order) {
        if (side === 'numbered at insert') await migrateDown(store.db, { schema });
        sides[side].push(await measure(writers[side]));
        if (side === 'numbered at insert') await migrateToLatest(store.db, { schema });
      }
    }
    const lines = [
      `live event commits on PostgreSQL: ${options.workers} writers, ${options.rounds} rounds of ${options.duration} s, load ${loadAverage()}`,
      ...Object.entries(sides).map(
        ([side, runs]) =>
          `${side}: ${fmt(median(runs.map((r) => r.rate)))} commits/s, median commit ${fmt(median(runs.map((r) => r.median)), 2)} ms`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await store.close();
    const client = new Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`drop schema ${schema} cascade`);
    await client.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
