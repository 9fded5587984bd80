import type { Config } from '../config';
import { openStore } from '../store/database';
import { describeDatabase, migrate } from './context';
import type { CliIo } from './io';

/** `migrate`: brings the database to the latest schema. */
export async function migrateCommand(config: Config, io: CliIo): Promise<number> {
  const store = openStore(config.databaseUrl);
  try {
    const applied = await migrate(store, config, io);
    io.out(
      applied.length
        ? `${describeDatabase(config)} is up to date (${applied.length} migration${applied.length === 1 ? '' : 's'} applied)`
        : `${describeDatabase(config)} was already up to date`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
