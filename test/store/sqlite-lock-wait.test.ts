import path from 'node:path';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/database';
import { DatabaseLocked } from '../../src/store/sqlite-lock-wait';
import { withDeadline } from '../../src/kernel/deadline';
import { sqliteLockHolder, type SqliteLockHolder } from '../support/sqlite-lock-holder';
import { tempDir } from '../cli/cli-support';

/** Generous bound on anything the test waits for: a busy machine is slow, never this slow. */
const DEADLINE_MS = 30_000;

/**
 * The serving store on SQLite (`sqliteLockWaitMs`) while another process holds the file's write
 * lock: a write waits off the event loop with the connection free for other statements, and fails
 * with DatabaseLocked, writing nothing, when the lock outlasts its wait.
 */
describe('a SQLite store waiting for another process’s write lock', () => {
  let dir: string;
  let remove: () => void;
  let file: string;
  let holder: SqliteLockHolder;
  let stores: Store[];

  beforeAll(async () => {
    ({ dir, remove } = tempDir());
    file = path.join(dir, 'locked.db');
    const setup = openStore(`sqlite:${file}`);
    await sql`create table marks (id integer primary key, label text not null)`.execute(setup.db);
    await sql`insert into marks (label) values ('first')`.execute(setup.db);
    await setup.close();
  });
  afterAll(() => remove());
  beforeEach(async () => {
    stores = [];
    holder = sqliteLockHolder(file);
    await holder.lock();
  });
  afterEach(async () => {
    await holder.end();
    for (const store of stores) await store.close();
  });

  const serving = (sqliteLockWaitMs: number) => {
    const store = openStore(`sqlite:${file}`, { sqliteLockWaitMs });
    stores.push(store);
    return store;
  };
  const labels = async (store: Store) =>
    (await store.arrays<[string]>(sql`select label from marks order by id`)).map(([label]) => label);

  it('runs other statements while a transaction waits to begin, then writes it', async () => {
    const store = serving(600_000);
    let settled = false;
    const write = store.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into marks (label) values ('in a transaction')`.execute(trx);
      })
      .finally(() => (settled = true));
    // Through Kysely (the connection the waiting transaction lends back) and the raw reads alike.
    const counted = await withDeadline(
      sql<{ n: number }>`select count(*) as n from marks`.execute(store.db),
      DEADLINE_MS,
      'a read waited behind the locked transaction',
    );
    expect(counted.rows).toEqual([{ n: 1 }]);
    expect(await labels(store)).toEqual(['first']);
    expect(settled).toBe(false);

    await holder.release();
    await withDeadline(write, DEADLINE_MS, 'the transaction did not end after the lock went');
    expect(await labels(store)).toEqual(['first', 'in a transaction']);
    await sql`delete from marks where label <> 'first'`.execute(store.db);
  });

  it('waits with a single statement too', async () => {
    const store = serving(600_000);
    let settled = false;
    const write = sql`insert into marks (label) values ('alone')`
      .execute(store.db)
      .finally(() => (settled = true));
    expect(await labels(store)).toEqual(['first']);
    expect(settled).toBe(false);
    await holder.release();
    await withDeadline(write, DEADLINE_MS, 'the statement did not run after the lock went');
    expect(await labels(store)).toEqual(['first', 'alone']);
    await sql`delete from marks where label <> 'first'`.execute(store.db);
  });

  it('fails with DatabaseLocked, writing nothing, when the lock outlasts the wait', async () => {
    const store = serving(50);
    await expect(
      store.db.transaction().execute(async (trx) => {
        await sql`insert into marks (label) values ('never')`.execute(trx);
      }),
    ).rejects.toThrow(DatabaseLocked);
    await expect(sql`insert into marks (label) values ('never')`.execute(store.db)).rejects.toThrow(
      /stayed locked by another connection for 50 ms/,
    );
    expect(await labels(store)).toEqual(['first']);

    // The connection is as good as before once the lock goes.
    await holder.release();
    await sql`insert into marks (label) values ('after')`.execute(store.db);
    expect(await labels(store)).toEqual(['first', 'after']);
    await sql`delete from marks where label <> 'first'`.execute(store.db);
  });
});
