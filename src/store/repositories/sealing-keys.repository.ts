import type { SealingKeysRepository, StoredSealingKey } from '../../domain/esign/esign.ports';
import type { Db } from '../database';
import type { SealingCertificatesTable } from '../schema';

export function sealingRowToKey(row: SealingCertificatesTable): StoredSealingKey {
  return {
    generation: Number(row.generation),
    fingerprint: row.fingerprint,
    certificatePem: row.certificate_pem,
    privateKeyPem: row.private_key_pem,
    createdAt: row.created_at,
  };
}

/** The installation's sealing certificates in `sealing_certificates`. */
export class SqlSealingKeysRepository implements SealingKeysRepository {
  constructor(private readonly db: Db) {}

  async readSealingKey(): Promise<StoredSealingKey | undefined> {
    const row = await this.db
      .selectFrom('sealing_certificates')
      .selectAll()
      .orderBy('generation', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? sealingRowToKey(row) : undefined;
  }

  /** One statement, so two instances making the same generation at once keep exactly one. */
  async writeSealingKey(key: StoredSealingKey): Promise<boolean> {
    const result = await this.db
      .insertInto('sealing_certificates')
      .values({
        generation: key.generation,
        fingerprint: key.fingerprint,
        certificate_pem: key.certificatePem,
        private_key_pem: key.privateKeyPem,
        created_at: key.createdAt,
      })
      .onConflict((oc) => oc.column('generation').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
