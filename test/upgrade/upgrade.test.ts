import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { FixedClock } from '../../src/kernel/clock';
import { openStore } from '../../src/store/database';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { MIGRATION_NAMES } from '../../src/store/migrator';
import { listingStates } from '../../src/store/listings';
import { DATASET_PLANS, LISTING_SOURCES, LISTING_VERSIONS } from '../../src/modules';
import { runCommand, tempDir } from '../cli/cli-support';
import { buildItem } from '../support/factories';
import { POSTGRES_URL } from '../support/dialects';
import { activeDialects } from '../support/harness';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { recordAnswers } = require('../../scripts/upgrade-answers.js') as {
  recordAnswers(base: string, token: string, requests: unknown[]): Promise<Answer[]>;
};

interface Answer {
  request: unknown;
  status: number;
  content_type: string | null;
  body: string;
}

interface Fixture {
  release: string;
  commit: string;
  recorded_at: string;
  bearer_token: string;
  company_id: string;
  /** A pg_dump of a schema the release migrated and loaded, when the fixture has one. */
  postgres?: { schema: string; bearer_token: string };
}

const FIXTURES = path.join(__dirname, '../fixtures/upgrade');
const RELEASES = fs.readdirSync(FIXTURES).sort();

/**
 * Databases written by earlier releases, by those releases' own code (test/fixtures/upgrade/*:
 * fixture.json says how each was made), migrated by this code, answer every read recorded from the
 * earlier release byte for byte (request ids aside), and take new writes.
 */
describe.each(RELEASES)('upgrading a SQLite database written by %s', (release) => {
  const folder = path.join(FIXTURES, release);
  const fixture = JSON.parse(fs.readFileSync(path.join(folder, 'fixture.json'), 'utf8')) as Fixture;
  const requests = JSON.parse(fs.readFileSync(path.join(folder, 'requests.json'), 'utf8')) as unknown[];
  const recorded = JSON.parse(
    zlib.gunzipSync(fs.readFileSync(path.join(folder, 'answers.json.gz'))).toString(),
  ) as Answer[];

  it('on SQLite: migrates, rebuilding the listings the earlier code wrote, answers every read as it did, and takes new writes', async () => {
    const { dir, remove } = tempDir();
    try {
      const file = path.join(dir, 'facility-ops.db');
      fs.writeFileSync(file, zlib.gunzipSync(fs.readFileSync(path.join(folder, 'facility-ops.db.gz'))));
      await upgradeAndCompare({ DATABASE_URL: `sqlite:${file}` }, fixture.bearer_token);
    } finally {
      remove();
    }
  }, 120_000);

  const onPostgres = fixture.postgres && activeDialects().includes('postgres') ? it : it.skip;
  onPostgres(
    'on PostgreSQL (its pg_dump restored into a schema of its own): the same',
    async () => {
      const dump = zlib.gunzipSync(fs.readFileSync(path.join(folder, 'postgres.sql.gz'))).toString();
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      try {
        const kept = new RegExp(`\\b${fixture.postgres?.schema}\\b`, 'g');
        await admin.query(dump.replace(kept, schema));
        // The dump sets an empty search_path for its session; this one ends with it.
        await upgradeAndCompare(
          { DATABASE_URL: `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` },
          fixture.postgres?.bearer_token ?? '',
        );
      } finally {
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    },
    120_000,
  );

  async function upgradeAndCompare(env: Record<string, string>, token: string): Promise<void> {
    const migrated = await runCommand(['migrate'], env);
    expect(migrated.err).toBe('');
    expect(migrated.code).toBe(0);
    expect(migrated.out).toMatch(/is up to date \([0-9]+ migrations? applied\)$/);
    // The listings the earlier code wrote are written again by this code before anything reads them.
    expect(migrated.out).toContain(
      `listings of rate_changes rebuilt to version ${LISTING_VERSIONS.rate_changes}`,
    );
    expect(migrated.out).toContain(
      `listings of invoiceable_items rebuilt to version ${LISTING_VERSIONS.invoiceable_items}`,
    );

    const store = openStore(env.DATABASE_URL);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env });
    const { app } = await buildApp({ config, store, clock: new FixedClock(new Date(fixture.recorded_at)) });
    try {
      const states = await listingStates(store.db, LISTING_SOURCES);
      expect(states.map((state) => [state.table, state.stored])).toEqual(Object.entries(LISTING_VERSIONS));
      const executed = (await store.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute()) as {
        name: string;
      }[];
      expect(executed.map((row) => row.name).sort()).toEqual([...MIGRATION_NAMES]);

      await app.listen({ host: '127.0.0.1', port: 0 });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const answers = await recordAnswers(base, token, requests);
      // One by one, so a difference names its request.
      for (const [i, answer] of answers.entries()) expect(answer).toEqual(recorded[i]);
      expect(answers).toHaveLength(recorded.length);

      // New writes, beside the earlier release's: an item added to the first facility listed.
      const first = requests.find(
        (r): r is string => typeof r === 'string' && /\/invoiceable_items$/.test(r),
      ) as string;
      const facilityId = first.split('/')[2];
      const item = buildItem({ facility_id: facilityId, kind: 'fee', description: `Added after ${release}` });
      await importDataset(store, DATASET_PLANS, { version: 1, invoiceable_items: [item] });
      type Page = {
        invoiceable_items: { id: string; description: string }[];
        meta: { pagination: { total_entries: number; total_pages: number } };
      };
      const before = JSON.parse(recorded.find((a) => a.request === first)?.body ?? '{}') as Page;
      const pages: Page[] = [];
      for (let page = 1; page <= before.meta.pagination.total_pages + 1; page++) {
        const [answer] = await recordAnswers(base, token, [`${first}?page=${page}`]);
        expect(answer.status).toBe(200);
        pages.push(JSON.parse(answer.body) as Page);
      }
      expect(pages[0].meta.pagination.total_entries).toBe(before.meta.pagination.total_entries + 1);
      const listed = pages.flatMap((page) => page.invoiceable_items);
      expect(listed).toContainEqual(
        expect.objectContaining({ id: item.id, description: `Added after ${release}` }),
      );
      // Every item the earlier release listed is still there.
      const ids = new Set(listed.map((i) => i.id));
      expect(before.invoiceable_items.filter((old) => !ids.has(old.id))).toEqual([]);
    } finally {
      await app.close();
      await store.close();
    }
  }
});
