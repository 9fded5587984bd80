import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { isSqliteBusy } from './sqlite-lock-wait';

/** A backup or restore refused or failed for a reason the operator can act on; nothing was changed. */
export class BackupError extends Error {}

/** The file of a `sqlite:<path>` DATABASE_URL, or null for PostgreSQL (and for `sqlite::memory:`). */
export function sqliteFileOf(url: string): string | null {
  if (!url.startsWith('sqlite:')) return null;
  const file = url.slice('sqlite:'.length);
  return file === ':memory:' ? null : file;
}

/** A temporary file beside `target`, renamed over it once complete, so nothing half-written is left. */
function partialBeside(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.partial`,
  );
}

function reason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/** Makes the file's data and its name durable. */
function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function syncFolder(folder: string): void {
  try {
    const fd = fs.openSync(folder, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some file systems cannot sync a folder; the rename itself is still atomic.
  }
}

/**
 * Copies a SQLite database that may be in use (a server writing to it) with SQLite's online backup
 * API: the copy is the database as one transaction saw it, every commit before it and none half.
 * Written to a temporary file beside `target`, synced, then renamed over it: a failure leaves
 * nothing behind. Answers the copy's size in bytes.
 */
export async function backupSqlite(source: string, target: string): Promise<number> {
  if (!fs.existsSync(source)) throw new BackupError(`there is no database at ${source}`);
  const folder = path.dirname(path.resolve(target));
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
    throw new BackupError(`cannot write the backup to ${target}: the folder ${folder} does not exist`);
  }
  try {
    fs.accessSync(folder, fs.constants.W_OK);
  } catch (error) {
    throw new BackupError(`cannot write the backup to ${target}: ${reason(error)}`);
  }
  if (fs.existsSync(target) && fs.statSync(target).isDirectory()) {
    throw new BackupError(`cannot write the backup to ${target}: it is a folder`);
  }
  const partial = partialBeside(path.resolve(target));
  const handle = new SqliteDatabase(source, { fileMustExist: true });
  try {
    handle.pragma('busy_timeout = 5000');
    // All remaining pages in one step, under one read transaction: a writer cannot make it restart.
    await handle.backup(partial, { progress: () => Number.MAX_SAFE_INTEGER });
    syncFile(partial);
    fs.renameSync(partial, target);
    syncFolder(folder);
    return fs.statSync(target).size;
  } catch (error) {
    fs.rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`cannot write the backup to ${target}: ${reason(error)}`);
  } finally {
    handle.close();
  }
}

/**
 * Whether another connection has the database open: SQLite refuses to leave WAL (which the store
 * uses) while any other connection has the file open. Leaves the file out of WAL when it is free.
 */
function inUse(file: string): boolean {
  const handle = new SqliteDatabase(file, { fileMustExist: true });
  try {
    handle.pragma('busy_timeout = 0');
    return handle.pragma('journal_mode = DELETE', { simple: true }) !== 'delete';
  } catch (error) {
    if (isSqliteBusy(error)) return true;
    throw error;
  } finally {
    handle.close();
  }
}

/** Checks that `file` is a SQLite database this project wrote: answers its migrations. */
function migrationsOf(file: string): string[] {
  let handle: SqliteDatabase.Database;
  try {
    handle = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`cannot read the backup ${file}: ${reason(error)}`);
  }
  try {
    const check = handle.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`the backup ${file} is damaged: ${String(check)}`);
    return (
      handle.prepare('select name from kysely_migration order by name').all() as { name: string }[]
    ).map((row) => row.name);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a facility-ops SQLite backup: ${reason(error)}`);
  } finally {
    handle.close();
  }
}

/**
 * Puts a backup in place of the database at `target`, which no process may have open (the service
 * stopped): copied beside it, then renamed over it. Answers the backup's migrations; `known` are
 * this release's, and a backup holding others (made by a newer release) is refused.
 */
export function restoreSqlite(backup: string, target: string, known: readonly string[]): string[] {
  if (!fs.existsSync(backup)) throw new BackupError(`there is no backup at ${backup}`);
  const migrations = migrationsOf(backup);
  const unknown = migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new BackupError(
      `the backup was made by a newer release of facility-ops: migration ${unknown[0]} is not one this release knows`,
    );
  }
  if (fs.existsSync(target) && inUse(target)) {
    throw new BackupError(
      `the database ${target} is open in another process (a running facility-ops server?): stop it, then restore`,
    );
  }
  const partial = partialBeside(path.resolve(target));
  try {
    fs.copyFileSync(backup, partial);
    syncFile(partial);
    // The database's own log, if any, belongs to the file being replaced.
    for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${target}${suffix}`, { force: true });
    fs.renameSync(partial, target);
    syncFolder(path.dirname(path.resolve(target)));
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw new BackupError(`cannot restore to ${target}: ${reason(error)}`);
  }
  return migrations;
}
