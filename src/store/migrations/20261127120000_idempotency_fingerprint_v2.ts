import { sql, type Kysely } from 'kysely';

/**
 * Clears the request fingerprints of the Idempotency-Keys stored before card data was left out of
 * them (issue 23): those were SHA-256 hashes over the whole card number, security code and track,
 * which must not be kept in any form. What replaces them is no fingerprint (it does not start with
 * `v2:`), so a retry under such a key is answered with the payment it made, never charged again;
 * only telling a different request under the same key apart is lost, for the 24 hours those keys
 * have left.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update idempotency_keys set request_hash = 'cleared' where request_hash not like 'v2:%'`.execute(
    db,
  );
}

/**
 * Nothing to undo: the cleared fingerprints cannot come back. Code from before, run again, answers a
 * retry under a key kept since with 400/5 (its fingerprints differ), never with a second charge.
 */
export async function down(): Promise<void> {}
