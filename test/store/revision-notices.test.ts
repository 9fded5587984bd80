import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { Client } from 'pg';
import { buildApp, type App } from '../../src/app';
import { importCommand } from '../../src/cli/import.command';
import type { CliIo } from '../../src/cli/io';
import { loadConfig } from '../../src/config';
import { openStore, type Store } from '../../src/store/database';
import { REVISIONS_CHANNEL_PREFIX } from '../../src/store/revision-notices';
import type { DatasetInvoiceableItem } from '../../src/store/dataset/dataset.types';
import { postGraphql } from '../graphql/graphql-client';
import { POSTGRES_URL } from '../support/dialects';
import { buildItem, buildTenant } from '../support/factories';
import { activeDialects } from '../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../support/http';
import { cash, line, payment } from '../support/payments';
import { waitFor } from '../support/wait';

const ITEMS = `query NoticedItems($id: UUID!) {
  facility(id: $id) {
    id
    invoiceableItems(list: RETAIL) { entries { id ... on RetailItem { quantity } } }
  }
}`;

interface ItemsData {
  facility: { invoiceableItems: { entries: Array<{ id: string; quantity?: number }> } };
}

/** A second instance on a store (a pool, a listening connection) of its own, over A's schema. */
interface Instance {
  app: FastifyInstance;
  services: App['services'];
  store: Store;
  queries: string[];
  logLines: string[];
  close(): Promise<void>;
}

async function startInstance(schema: string, env: Record<string, string> = {}): Promise<Instance> {
  const queries: string[] = [];
  const logLines: string[] = [];
  const store = openStore(POSTGRES_URL, { pgSchema: schema, onQuery: (text) => queries.push(text) });
  const config = loadConfig({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'warn' });
  const { app, services } = await buildApp({
    config,
    store,
    logStream: { write: (text: string) => logLines.push(text) },
  });
  await app.ready();
  return {
    app,
    services,
    store,
    queries,
    logLines,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

const NAME = 'kept answers on PostgreSQL, current without asking (revision notices)';
const onPostgres = activeDialects().includes('postgres');

(onPostgres ? describe : describe.skip)(
  onPostgres ? NAME : `${NAME} (SKIPPED: PostgreSQL did not answer, or DIALECTS leaves it out)`,
  () => {
    let t: TestApp;
    let other: Instance;
    let schema: string;
    let item: DatasetInvoiceableItem;
    let tenantId: string;
    let url: string;
    let admin: Client;

    beforeAll(async () => {
      t = await createTestApp('postgres');
      const tenant = buildTenant({ facility_id: t.world.facility.id });
      item = buildItem({ facility_id: t.world.facility.id, description: 'Disc lock', quantity: 1000 });
      await t.load({ tenants: [tenant], invoiceable_items: [item] });
      tenantId = tenant.id;
      url = `/v1/${t.world.facility.id}/invoiceable_items/retail`;
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
        t.db.store.db,
      );
      schema = rows[0]!.schema;
      other = await startInstance(schema);
      admin = new Client({ connectionString: POSTGRES_URL });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.end();
      await other?.close();
      await t?.close();
    });

    const leased = (app: { services: App['services'] }) =>
      waitFor(() => app.services.revisionNotices?.current === true, 'the instance to hold a lease');

    const restQuantity = async (app: FastifyInstance) => {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: oauthHeader(t.world.client, { method: 'GET', url }) },
      });
      expect(res.statusCode).toBe(200);
      return res.json().invoiceable_items.find((i: { id: string }) => i.id === item.id).quantity as number;
    };
    const graphqlQuantity = async (app: FastifyInstance) => {
      const res = await postGraphql<ItemsData>(
        app,
        { query: ITEMS, variables: { id: t.world.facility.id } },
        { bearer: t.world.client.bearer_token },
      );
      expect(res.errors).toBeUndefined();
      return res.data!.facility.invoiceableItems.entries.find((entry) => entry.id === item.id)!.quantity!;
    };
    /** A retail payment taking two from the item's stock, on the first instance unless told. */
    const pay = async (app: FastifyInstance = t.app) => {
      const res = await app.inject({
        method: 'POST',
        url: `/v1/${t.world.facility.id}/invoiceable_items/retail_payment`,
        headers: {
          authorization: `Bearer ${t.world.client.bearer_token}`,
          'content-type': 'application/json',
        },
        payload: JSON.stringify(payment([line(item, 2)], cash('100'), { tenant_id: tenantId })),
      });
      expect(res.statusCode).toBe(200);
    };
    const tokenReads = (queries: string[]) => queries.filter((q) => /data_revisions/.test(q)).length;

    it('answers a repeated page from memory, reading no token, once its lease holds', async () => {
      await leased(other);
      await restQuantity(other.app);
      await graphqlQuantity(other.app);
      other.queries.length = 0;
      for (let i = 0; i < 5; i++) {
        await restQuantity(other.app);
        await graphqlQuantity(other.app);
      }
      // Only the OAuth nonces each signed request records.
      expect(other.queries.filter((q) => !/^insert into "oauth_nonces"/.test(q))).toEqual([]);
    });

    it("shows the other instance's write in the very next read, 20 of 20, REST and GraphQL", async () => {
      await leased(other);
      let expected = await restQuantity(t.app);
      const seen: boolean[] = [];
      for (let i = 0; i < 20; i++) {
        // Both pages kept on the reading instance before the write.
        await restQuantity(other.app);
        await graphqlQuantity(other.app);
        await pay();
        expected -= 2;
        seen.push(
          (await restQuantity(other.app)) === expected && (await graphqlQuantity(other.app)) === expected,
        );
      }
      expect(seen).toEqual(Array(20).fill(true));
    });

    it('stays current while its listening connection is cut, reads tokens until it is back, then stops asking', async () => {
      await leased(other);
      let expected = await restQuantity(t.app);
      const seen: boolean[] = [];
      const cut: number[] = [];
      for (let i = 0; i < 20; i++) {
        await restQuantity(other.app);
        await graphqlQuantity(other.app);
        const pid = other.services.revisionNotices!.backendPid;
        if (pid !== null) {
          await admin.query('select pg_terminate_backend($1)', [pid]);
          cut.push(pid);
        }
        await pay();
        expected -= 2;
        seen.push(
          (await restQuantity(other.app)) === expected && (await graphqlQuantity(other.app)) === expected,
        );
      }
      expect(seen).toEqual(Array(20).fill(true));
      expect(cut.length).toBeGreaterThan(0);
      expect(other.logLines.join('')).toContain('revision notices: LISTEN connection lost');

      // Restored: a connection of its own again, a lease, and kept pages served without a token read.
      await waitFor(() => {
        const pid = other.services.revisionNotices!.backendPid;
        return pid !== null && !cut.includes(pid) && other.services.revisionNotices!.current;
      }, 'the listening connection to be made again');
      await pay();
      expected -= 2;
      expect(await restQuantity(other.app)).toBe(expected);
      expect(await graphqlQuantity(other.app)).toBe(expected);
      other.queries.length = 0;
      expect(await restQuantity(other.app)).toBe(expected);
      expect(await graphqlQuantity(other.app)).toBe(expected);
      expect(tokenReads(other.queries)).toBe(0);
    });

    /**
     * Runs `work` while the instance hears nothing: its next pulse waits for a lock on its
     * registration, and PostgreSQL delivers no notification to a connection inside a statement.
     */
    const hearingLate = async <T>(instance: Instance, work: () => Promise<T>): Promise<T> => {
      const notices = instance.services.revisionNotices!;
      const holder = new Client({ connectionString: POSTGRES_URL });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query(`select 1 from ${schema}.revision_listeners where id = $1 for update`, [
          notices.registration,
        ]);
        const pid = notices.backendPid;
        await waitFor(
          async () =>
            (
              await admin.query(
                `select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`,
                [pid],
              )
            ).rowCount === 1,
          'the pulse to wait for the lock',
        );
        return await work();
      } finally {
        await holder.query('rollback').catch(() => undefined);
        await holder.end();
      }
    };

    it('stays current while it hears late: a write waits for it, or for its lease to end', async () => {
      await leased(other);
      let expected = await restQuantity(t.app);
      const seen: boolean[] = [];
      for (let i = 0; i < 3; i++) {
        await restQuantity(other.app);
        await graphqlQuantity(other.app);
        seen.push(
          await hearingLate(other, async () => {
            await pay();
            expected -= 2;
            return (
              (await restQuantity(other.app)) === expected && (await graphqlQuantity(other.app)) === expected
            );
          }),
        );
      }
      expect(seen).toEqual([true, true, true]);
    });

    it("shows what the command line's import wrote in the very next read, however late it hears", async () => {
      await leased(other);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'revision-notices-')), 'stock.json');
      fs.writeFileSync(file, JSON.stringify({ version: 1, invoiceable_items: [{ ...item, quantity: 7 }] }));
      const config = loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      });
      const lines: string[] = [];
      const io: CliIo = {
        out: (line) => lines.push(line),
        err: (line) => lines.push(line),
        env: {},
        stopRequested: () => new Promise<string>(() => undefined),
      };
      await restQuantity(other.app);
      const shown = await hearingLate(other, async () => {
        expect(await importCommand(config, io, file)).toBe(0);
        return restQuantity(other.app);
      });
      expect(shown).toBe(7);
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    });

    it('reads the tokens again after a notification it cannot read, and says so', async () => {
      await leased(other);
      await restQuantity(other.app);
      const before = other.services.revisionNotices!.generation;
      await admin.query('select pg_notify($1, $2)', [`${REVISIONS_CHANNEL_PREFIX}${schema}`, 'not a notice']);
      await waitFor(() => other.services.revisionNotices!.generation > before, 'the notice to be heard');
      other.queries.length = 0;
      await restQuantity(other.app);
      expect(tokenReads(other.queries)).toBeGreaterThan(0);
      expect(other.logLines.join('')).toContain('a notification could not be read');
    });

    it('holds a write back for a registered instance that never answers until its lease has ended, then answers', async () => {
      const short = await startInstance(schema, { REVISION_LEASE_MS: '300' });
      try {
        await leased(short);
        await admin.query(
          `insert into ${schema}.revision_listeners (id, alive_until, lease_ms)
         values ('silent', clock_timestamp() + interval '1 hour', 300)`,
        );
        const started = Date.now();
        await pay(short.app);
        // Answered (pay checks the 200), after waiting for the silent instance's lease to end at the least.
        expect(Date.now() - started).toBeGreaterThanOrEqual(300);
        expect(await restQuantity(other.app)).toBe(await restQuantity(t.app));
      } finally {
        await admin.query(`delete from ${schema}.revision_listeners where id = 'silent'`);
        await short.close();
      }
    });

    it('reads a token for every kept answer when REVISION_LEASE_MS is 0', async () => {
      const reading = await startInstance(schema, { REVISION_LEASE_MS: '0' });
      try {
        expect(reading.services.revisionNotices).toBeNull();
        await restQuantity(reading.app);
        reading.queries.length = 0;
        await restQuantity(reading.app);
        expect(tokenReads(reading.queries)).toBeGreaterThan(0);
        reading.queries.length = 0;
        await restQuantity(reading.app);
        expect(tokenReads(reading.queries)).toBeGreaterThan(0);
      } finally {
        await reading.close();
      }
    });

    it('takes an instance that closes off the list at once', async () => {
      const leaving = await startInstance(schema);
      await leased(leaving);
      const id = leaving.services.revisionNotices!.registration;
      const listed = async () =>
        (await admin.query(`select 1 from ${schema}.revision_listeners where id = $1`, [id])).rowCount;
      expect(await listed()).toBe(1);
      await leaving.close();
      expect(await listed()).toBe(0);
    });
  },
);
