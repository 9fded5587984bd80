import type { SealingKeysRepository, StoredSealingKey } from '../../areas/esign/esign.ports';
import {
  SealingKeyProblem,
  installationKeyFromPem,
  keptPrivateKey,
  makeInstallationKey,
  type SealingKey,
} from './sealing-key';

/** How signed PDFs are sealed: the operator's certificate, or the installation's own. */
export interface SealSettings {
  /** SEAL_P12_FILE and SEAL_P12_PASSPHRASE, read and checked at start-up; null: the installation's own. */
  readonly operatorKey: SealingKey | null;
  /** SEAL_KEY_PASSPHRASE: encrypts the installation's own key where it is kept; null keeps it in clear. */
  readonly keyPassphrase: string | null;
  /** The common name of the installation's own certificates (it names the installation's address). */
  readonly commonName: string;
}

/** A sealing setting that cannot work; start-up refuses with `setting: message`. */
export class SealSettingError extends Error {
  constructor(
    readonly setting: string,
    readonly problem: string,
  ) {
    super(`${setting}: ${problem}`);
  }
}

/**
 * The key that seals signed PDFs, loaded once and kept in memory: the operator's, or else the
 * installation's newest, made on first need. Every instance on one database takes the same one:
 * the first is written with an insert that keeps whichever instance's came first, and all read it
 * back. An expired installation certificate is replaced by the next generation.
 */
export class DocumentSeal {
  private loading: Promise<SealingKey> | null = null;

  constructor(
    private readonly keys: SealingKeysRepository,
    private readonly settings: SealSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The key that seals now. Throws SealSettingError when the kept key cannot be opened. */
  current(): Promise<SealingKey> {
    if (!this.loading) {
      this.loading = this.load();
      // A failure is not kept: the next call tries again (the database may have been down).
      this.loading.catch(() => (this.loading = null));
    }
    return this.loading;
  }

  /** Whether the settings give the key (SEAL_P12_FILE): nothing kept in the database seals then. */
  settingsGiveKey(): boolean {
    return this.settings.operatorKey !== null;
  }

  /**
   * Makes the installation's next certificate and seals with it from now on (other instances take
   * it when they start again). Files sealed before keep the certificate they embed.
   */
  async rotate(): Promise<SealingKey> {
    if (this.settings.operatorKey) {
      throw new SealSettingError(
        'SEAL_P12_FILE',
        'the operator gives the sealing certificate: replace the file to rotate',
      );
    }
    const kept = await this.keys.readSealingKey();
    const key = await this.make((kept?.generation ?? 0) + 1);
    this.loading = Promise.resolve(key);
    return key;
  }

  private async load(): Promise<SealingKey> {
    if (this.settings.operatorKey) return this.settings.operatorKey;
    const kept = await this.keys.readSealingKey();
    if (!kept) return this.make(1);
    const key = this.open(kept);
    return key.problemAt(this.now()) === null ? key : this.make(kept.generation + 1);
  }

  /** Makes generation `generation` unless another instance made it first; answers the one kept. */
  private async make(generation: number): Promise<SealingKey> {
    const made = await makeInstallationKey(this.settings.commonName, generation, this.now());
    const written = await this.keys.writeSealingKey({
      generation,
      fingerprint: made.key.fingerprint,
      certificatePem: made.certificatePem,
      privateKeyPem: keptPrivateKey(made.privateKey, this.settings.keyPassphrase),
      createdAt: this.now().toISOString(),
    });
    if (written) return made.key;
    const kept = await this.keys.readSealingKey();
    if (!kept) throw new Error('the sealing certificate another instance made cannot be read back');
    return this.open(kept);
  }

  private open(kept: StoredSealingKey): SealingKey {
    try {
      return installationKeyFromPem(
        kept.certificatePem,
        kept.privateKeyPem,
        this.settings.keyPassphrase,
        kept.generation,
      );
    } catch (error) {
      if (error instanceof SealingKeyProblem)
        throw new SealSettingError('SEAL_KEY_PASSPHRASE', error.message);
      throw error;
    }
  }
}
