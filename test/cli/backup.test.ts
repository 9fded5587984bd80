import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { runCommand, tempDir } from './cli-support';
import { openStore } from '../../src/store/database';
import { POSTGRES_URL } from '../support/dialects';

/**
 * A writer in another process, as a server is: each company it inserts is committed on its own,
 * then acknowledged on standard output by its number.
 */
const WRITER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 10000');
const insert = db.prepare("insert into companies (id, name) values (?, 'written under backup')");
let n = 0;
const step = () => {
  for (let i = 0; i < 20; i++, n++) {
    insert.run('w-' + String(n).padStart(6, '0'));
    process.stdout.write(n + '\\n');
  }
  setImmediate(step);
};
step();
`;

/** Resolves once `count()` reaches `n`, or fails after a generous deadline. */
async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('backup and restore of a SQLite database', () => {
  let dir: string;
  let remove: () => void;
  let env: Record<string, string>;
  let file: string;
  let writer: ChildProcess | null = null;

  beforeEach(async () => {
    ({ dir, remove } = tempDir());
    file = path.join(dir, 'facility-ops.db');
    env = { DATABASE_URL: `sqlite:${file}` };
    expect((await runCommand(['migrate'], env)).code).toBe(0);
  });
  afterEach(async () => {
    if (writer && writer.exitCode === null && writer.signalCode === null) {
      const exited = new Promise((resolve) => writer?.once('exit', resolve));
      writer.kill('SIGKILL');
      await exited;
    }
    remove();
  });

  const companies = (at: string): string[] => {
    const handle = new SqliteDatabase(at, { readonly: true });
    try {
      return (
        handle.prepare("select id from companies where id like 'w-%' order by id").all() as { id: string }[]
      ).map((row) => row.id);
    } finally {
      handle.close();
    }
  };
  const leftovers = () => fs.readdirSync(dir).filter((name) => name.endsWith('.partial'));

  it('backs up while another process writes, and the restored copy holds every write acknowledged before it', async () => {
    let acknowledged = 0;
    writer = spawn(process.execPath, ['-e', WRITER, file], {
      cwd: path.join(__dirname, '../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffered = '';
    writer.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      acknowledged += lines.length;
    });
    await until('the writer to start', () => acknowledged >= 200);
    const beforeBackup = acknowledged;
    const backup = path.join(dir, 'backup.db');
    const made = await runCommand(['backup', backup], env);
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^backed up sqlite:.*facility-ops\.db to .*backup\.db \([0-9,]+ bytes\)$/);
    // The writer went on during and after the backup.
    const afterBackup = acknowledged;
    await until('more writes after the backup', () => acknowledged >= afterBackup + 200);

    // A restore while the writer has the database open is refused, and changes nothing.
    const refused = await runCommand(['restore', backup], env);
    expect(refused.code).toBe(1);
    expect(refused.err.split('\n')).toEqual([
      expect.stringMatching(
        /^facility-ops: the database .* is open in another process .*: stop it, then restore$/,
      ),
    ]);

    const exited = new Promise((resolve) => writer?.once('exit', resolve));
    writer.kill('SIGKILL');
    await exited;
    const written = companies(file).length;
    expect(written).toBeGreaterThanOrEqual(afterBackup + 200);

    const restored = await runCommand(['restore', backup], env);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    const ids = companies(file);
    // Every write acknowledged before the backup began, and the writes in order with no gap: one
    // moment's database, not pages of several.
    expect(ids.length).toBeGreaterThanOrEqual(beforeBackup);
    expect(ids.length).toBeLessThan(written);
    expect(ids).toEqual(ids.map((_, n) => `w-${String(n).padStart(6, '0')}`));
    expect(leftovers()).toEqual([]);
    // The restored database serves and migrates as any other.
    expect((await runCommand(['migrate'], env)).code).toBe(0);
  }, 120_000);

  it.each([
    ['into a folder that does not exist', (d: string) => path.join(d, 'missing', 'backup.db')],
    ['under a file', (d: string) => path.join(d, 'facility-ops.db', 'backup.db')],
    ['onto a folder', (d: string) => d],
  ])('refuses a backup %s in one line, leaving nothing half-written', async (_what, target) => {
    const before = fs.readdirSync(dir).sort();
    const result = await runCommand(['backup', target(dir)], env);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err.split('\n')).toEqual([
      expect.stringMatching(/^facility-ops: cannot write the backup to /),
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual(before);
  });

  it('refuses to restore what is not a backup, or one made by a newer release, changing nothing', async () => {
    const notABackup = path.join(dir, 'notes.txt');
    fs.writeFileSync(notABackup, 'not a database');
    const store = openStore(env.DATABASE_URL);
    await store.db.insertInto('companies').values({ id: 'kept', name: 'Kept' }).execute();
    await store.close();
    const garbage = await runCommand(['restore', notABackup], env);
    expect(garbage.code).toBe(1);
    expect(garbage.err.split('\n')).toHaveLength(1);

    const newer = path.join(dir, 'newer.db');
    expect((await runCommand(['backup', newer], env)).code).toBe(0);
    const handle = new SqliteDatabase(newer);
    handle
      .prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
      .run('20991231120000_from_a_newer_release', new Date().toISOString());
    handle.close();
    const refused = await runCommand(['restore', newer], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      'facility-ops: the backup was made by a newer release of facility-ops: migration 20991231120000_from_a_newer_release is not one this release knows',
    );
    expect(companies(file)).toEqual([]);
    const check = new SqliteDatabase(file, { readonly: true });
    expect(check.prepare("select name from companies where id = 'kept'").get()).toEqual({ name: 'Kept' });
    check.close();
  });

  it('sends PostgreSQL operators to pg_dump and pg_restore', async () => {
    for (const command of ['backup', 'restore']) {
      const result = await runCommand([command, path.join(dir, 'x.dump')], { DATABASE_URL: POSTGRES_URL });
      expect(result.code).toBe(1);
      expect(result.err).toBe(
        `facility-ops: ${command} is for SQLite databases: on PostgreSQL, back up and restore with pg_dump and pg_restore (docs/operations.md#backups)`,
      );
    }
  });
});
