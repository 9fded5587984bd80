import type { SealingKeysRepository, StoredSealingKey } from './esign.ports';
import { sealingCertificates } from './esign.tables';
import { SecretUnreadable, type SecretBox, type SecretPlace } from '../../kernel/secret-box';
import type { Db } from '../../store/database';
import { rowCodec } from '../../store/rows';

/** Where a generation's private key is kept: sealed under SECRETS_KEY, bound to its row. */
export function sealingKeyPlace(generation: number): SecretPlace {
  return { table: 'sealing_certificates', column: 'private_key_pem', rowId: String(generation) };
}

/** A certificate's columns but its private key, which is only ever read opened and written sealed. */
const certificateColumns = rowCodec(sealingCertificates, ['private_key_pem']);

/** What a discarded private key is replaced by: its certificate stays, as a record. */
export const DISCARDED_PRIVATE_KEY = 'discarded: sealed under a key this installation no longer has';

/**
 * The installation's sealing certificates in `sealing_certificates`, each private key sealed by the
 * secret box (SECRETS_KEY; in clear without one) over the passphrase's own encryption, if any.
 */
export class SqlSealingKeysRepository implements SealingKeysRepository {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {}

  async readSealingKey(): Promise<StoredSealingKey | undefined> {
    const row = await this.db
      .selectFrom('sealing_certificates')
      .selectAll()
      .orderBy('generation', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    const key = certificateColumns.read(row);
    return { ...key, privateKeyPem: this.secrets.open(row.private_key_pem, sealingKeyPlace(key.generation)) };
  }

  /** One statement, so two instances making the same generation at once keep exactly one. */
  async writeSealingKey(key: StoredSealingKey): Promise<boolean> {
    const result = await this.db
      .insertInto('sealing_certificates')
      .values({
        ...certificateColumns.write(key),
        private_key_pem: this.secrets.seal(key.privateKeyPem, sealingKeyPlace(key.generation)),
      })
      .onConflict((oc) => oc.column('generation').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Replaces every private key the secret box cannot open by DISCARDED_PRIVATE_KEY (each write
   * conditional on the value read), keeping the certificates; answers the generations discarded.
   */
  async discardUnreadableKeys(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('sealing_certificates')
      .select(['generation', 'private_key_pem'])
      .orderBy('generation')
      .execute();
    const discarded: number[] = [];
    for (const row of rows) {
      const generation = Number(row.generation);
      try {
        this.secrets.open(row.private_key_pem, sealingKeyPlace(generation));
        continue;
      } catch (error) {
        if (!(error instanceof SecretUnreadable)) throw error;
      }
      const result = await this.db
        .updateTable('sealing_certificates')
        .set({ private_key_pem: this.secrets.seal(DISCARDED_PRIVATE_KEY, sealingKeyPlace(generation)) })
        .where('generation', '=', generation)
        .where('private_key_pem', '=', row.private_key_pem)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) discarded.push(generation);
    }
    return discarded;
  }
}
