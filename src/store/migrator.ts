import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './database';
import * as initial from './migrations/20261121120000_initial';
import * as rateChangeCounts from './migrations/20261121130000_rate_change_counts';
import * as paymentMethodGatewayToken from './migrations/20261121140000_payment_method_gateway_token';
import * as dataRevisions from './migrations/20261121150000_data_revisions';
import * as esignSigning from './migrations/20261124120000_esign_signing';
import * as ledgerAndActionRevisions from './migrations/20261125090000_ledger_and_action_revisions';
import * as webhooks from './migrations/20261125100000_webhooks';
import * as itemListOrder from './migrations/20261125120000_item_list_order';
import * as rateChangeNames from './migrations/20261125130000_rate_change_names';
import * as rateChangeListings from './migrations/20261125140000_rate_change_listings';
import * as itemListings from './migrations/20261125150000_item_listings';

/** Migrations in order, listed here so bundles and tests need no directory scan. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121120000_initial': initial,
  '20261121130000_rate_change_counts': rateChangeCounts,
  '20261121140000_payment_method_gateway_token': paymentMethodGatewayToken,
  '20261121150000_data_revisions': dataRevisions,
  '20261124120000_esign_signing': esignSigning,
  '20261125090000_ledger_and_action_revisions': ledgerAndActionRevisions,
  '20261125100000_webhooks': webhooks,
  '20261125120000_item_list_order': itemListOrder,
  '20261125130000_rate_change_names': rateChangeNames,
  '20261125140000_rate_change_listings': rateChangeListings,
  '20261125150000_item_listings': itemListings,
};

/** Every migration's name, oldest first. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export interface MigrateOptions {
  /** PostgreSQL schema holding the migration tables; needed when several schemas share a database. */
  schema?: string;
}

function migrator(db: Db, options: MigrateOptions): Migrator {
  return new Migrator({ db, provider, migrationTableSchema: options.schema });
}

/** Brings the database to the latest schema; throws with the failing migration's error. */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<MigrationResultSet> {
  const result = await migrator(db, options).migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

export async function migrateDown(db: Db, options: MigrateOptions = {}): Promise<MigrationResultSet> {
  const result = await migrator(db, options).migrateDown();
  if (result.error) throw result.error;
  return result;
}
