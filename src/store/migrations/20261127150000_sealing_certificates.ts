import type { Kysely } from 'kysely';

/**
 * Sealing certificates: the installation's own self-signed certificates that seal signed PDFs when
 * the operator gives none (`SEAL_P12_FILE`), shared by every instance on the database.
 *
 * - `generation` numbers them; the newest seals new files. The first is inserted on first need by
 *   whichever instance gets there first (an insert that does nothing when the generation is taken),
 *   and `facility-ops seal rotate` adds the next. Older ones stay: files sealed with them embed them.
 * - `private_key_pem` is PKCS#8 PEM, encrypted with `SEAL_KEY_PASSPHRASE` when one is set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sealing_certificates')
    .addColumn('generation', 'integer', (c) => c.primaryKey())
    .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
    .addColumn('certificate_pem', 'text', (c) => c.notNull())
    .addColumn('private_key_pem', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sealing_certificates').execute();
}
