import type { Config } from '../config';
import { BackupError, backupSqlite, restoreSqlite, sqliteFileOf } from '../store/backup';
import { MIGRATION_NAMES } from '../store/migrator';
import { CommandFailure, parseCommandArgs, UsageError } from './args';
import { describeDatabase, formatCount } from './context';
import type { CliIo } from './io';

const POSTGRES_WAY =
  'on PostgreSQL, back up and restore with pg_dump and pg_restore (docs/operations.md#backups)';

function sqliteFile(config: Config, command: string): string {
  const file = sqliteFileOf(config.databaseUrl);
  if (file === null) {
    throw new CommandFailure(
      config.databaseUrl.startsWith('sqlite:')
        ? `${command} needs a database file, not an in-memory database`
        : `${command} is for SQLite databases: ${POSTGRES_WAY}`,
    );
  }
  return file;
}

function positionalFile(argv: string[], command: string): string {
  const { positionals } = parseCommandArgs(argv, {}, 1);
  if (positionals.length === 0)
    throw new UsageError(`${command} needs a file: facility-ops ${command} <file>`);
  return positionals[0];
}

/** `backup <file>`: a consistent copy of the SQLite database, made while the service runs. */
export async function backupCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const target = positionalFile(argv, 'backup');
  const source = sqliteFile(config, 'backup');
  try {
    const bytes = await backupSqlite(source, target);
    io.out(`backed up ${describeDatabase(config)} to ${target} (${formatCount(bytes)} bytes)`);
    return 0;
  } catch (error) {
    if (error instanceof BackupError) throw new CommandFailure(error.message);
    throw error;
  }
}

/** `restore <file>`: puts a backup in place of the SQLite database, the service stopped. */
export async function restoreCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const backup = positionalFile(argv, 'restore');
  const target = sqliteFile(config, 'restore');
  try {
    const migrations = restoreSqlite(backup, target, MIGRATION_NAMES);
    io.out(
      `restored ${describeDatabase(config)} from ${backup} (schema at ${migrations[migrations.length - 1] ?? 'none'}); ` +
        '`facility-ops migrate` brings it to this release',
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError) throw new CommandFailure(error.message);
    throw error;
  }
}
