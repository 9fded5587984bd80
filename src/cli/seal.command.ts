import { secretBoxFor } from '../adapters/secrets/aes-gcm.secret-box';
import { DocumentSeal, SealSettingError } from '../adapters/seal/document-seal';
import { colonFingerprint, type SealingKey } from '../adapters/seal/sealing-key';
import { ConfigError, type Config } from '../config';
import { SqlSealingKeysRepository } from '../store/repositories/sealing-keys.repository';
import { parseCommandArgs, UsageError } from './args';
import { withMigratedStore } from './context';
import type { CliIo } from './io';

const ACTIONS = ['show', 'rotate'] as const;
type Action = (typeof ACTIONS)[number];

/**
 * `seal show|rotate`: the certificate that seals signed PDFs (made now if the installation has
 * none yet), or the installation's next one.
 */
export async function sealCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (!ACTIONS.includes(action as Action)) {
    throw new UsageError(
      action
        ? `unknown seal action "${action}" (${ACTIONS.join(', ')})`
        : `seal needs an action: ${ACTIONS.join(', ')}`,
    );
  }
  const { values } = parseCommandArgs(rest, { json: { type: 'boolean' } }, 0);
  return withMigratedStore(config, io, async (store) => {
    const seal = new DocumentSeal(
      new SqlSealingKeysRepository(store.db, secretBoxFor(config.secrets)),
      config.seal,
      io.now,
    );
    let key: SealingKey;
    try {
      key = action === 'rotate' ? await seal.rotate() : await seal.current();
    } catch (error) {
      throw error instanceof SealSettingError ? new ConfigError([error.message]) : error;
    }
    if (values.json) io.out(JSON.stringify(describe(key)));
    else for (const line of lines(key, action === 'rotate')) io.out(line);
    return 0;
  });
}

function describe(key: SealingKey) {
  return {
    origin: key.origin,
    generation: key.generation,
    subject: key.subject,
    sha256: colonFingerprint(key.fingerprint),
    not_after: key.notAfter.toISOString(),
  };
}

function lines(key: SealingKey, rotated: boolean): string[] {
  return [
    rotated
      ? `made the installation's sealing certificate ${key.generation}: new signed PDFs are sealed with it (restart running instances so they take it)`
      : key.origin === 'operator'
        ? 'signed PDFs are sealed with the certificate of SEAL_P12_FILE'
        : `signed PDFs are sealed with the installation's own certificate, generation ${key.generation}`,
    `  subject   ${key.subject}`,
    `  SHA-256   ${colonFingerprint(key.fingerprint)}`,
    `  valid to  ${key.notAfter.toISOString()}`,
  ];
}
