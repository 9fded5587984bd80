import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './database';
import { isPostgres } from './dialect';
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
import * as countKeysCarryCounts from './migrations/20261125160000_count_keys_carry_counts';
import * as monthlyRateChangeCounts from './migrations/20261126120000_monthly_rate_change_counts';
import * as idempotencyFingerprintV2 from './migrations/20261127120000_idempotency_fingerprint_v2';
import * as sealingCertificates from './migrations/20261127150000_sealing_certificates';
import * as liveEvents from './migrations/20261127170000_live_events';
import * as trustedDocuments from './migrations/20261128090000_trusted_documents';
import * as liveEventsCommitOrder from './migrations/20261128100000_live_events_commit_order';
import * as clientCredentials from './migrations/20261128110000_client_credentials';
import * as paymentAttempts from './migrations/20261128120000_payment_attempts';
import * as listingVersions from './migrations/20261128130000_listing_versions';

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
  '20261125160000_count_keys_carry_counts': countKeysCarryCounts,
  '20261126120000_monthly_rate_change_counts': monthlyRateChangeCounts,
  '20261127120000_idempotency_fingerprint_v2': idempotencyFingerprintV2,
  '20261127150000_sealing_certificates': sealingCertificates,
  '20261127170000_live_events': liveEvents,
  '20261128090000_trusted_documents': trustedDocuments,
  '20261128100000_live_events_commit_order': liveEventsCommitOrder,
  '20261128110000_client_credentials': clientCredentials,
  '20261128120000_payment_attempts': paymentAttempts,
  '20261128130000_listing_versions': listingVersions,
};

/** Every migration's name, oldest first. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export interface MigrateOptions {
  /** PostgreSQL schema holding the migration tables; needed when several schemas share a database. */
  schema?: string;
}

/**
 * The migrator, its tables in `options.schema` or else, on PostgreSQL, in the connection's current
 * schema (the first of its search_path). Told no schema, Kysely looks for its tables in every
 * schema of the database: a second instance kept in another schema of the same database took the
 * first's tables for its own and failed.
 */
async function migrator(db: Db, options: MigrateOptions): Promise<Migrator> {
  let schema = options.schema;
  if (schema === undefined && isPostgres(db)) {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    schema = rows[0]?.schema ?? undefined;
  }
  return new Migrator({ db, provider, migrationTableSchema: schema });
}

/** Brings the database to the latest schema; throws with the failing migration's error. */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<MigrationResultSet> {
  const result = await (await migrator(db, options)).migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

export async function migrateDown(db: Db, options: MigrateOptions = {}): Promise<MigrationResultSet> {
  const result = await (await migrator(db, options)).migrateDown();
  if (result.error) throw result.error;
  return result;
}
