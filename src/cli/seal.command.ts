import { secretBoxFor } from '../adapters/secrets/aes-gcm.secret-box';
import { DocumentSeal, SealSettingError } from '../adapters/seal/document-seal';
import { colonFingerprint, type SealingKey } from '../adapters/seal/sealing-key';
import { ConfigError, type Config } from '../config';
import { SqlSealingKeysRepository } from '../areas/esign/sealing-keys.repository';
import type { Store } from '../store/database';
import { storedSecrets } from '../store/secret-columns';
import { SecretUnreadable, type SecretBox } from '../kernel/secret-box';
import { CommandFailure, parseCommandArgs, UsageError } from './args';
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
  const { values } = parseCommandArgs(
    rest,
    { json: { type: 'boolean' }, 'discard-unreadable': { type: 'boolean' } },
    0,
  );
  if (values['discard-unreadable'] && action !== 'rotate')
    throw new UsageError('--discard-unreadable goes with seal rotate');
  return withMigratedStore(config, io, async (store) => {
    const box = secretBoxFor(config.secrets);
    const keys = new SqlSealingKeysRepository(store.db, box);
    const seal = new DocumentSeal(keys, config.seal, io.now);
    if (values['discard-unreadable']) return recover(store, box, keys, seal, io, values.json === true);
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

/**
 * `seal rotate --discard-unreadable`: the way out when SECRETS_KEY was lost. The private keys no
 * given key opens are discarded (their certificates stay), a new certificate is made and seals from
 * now on, and the other stored secrets that cannot be read are named with what to do about them.
 * Against a healthy seal it changes nothing and fails.
 */
async function recover(
  store: Store,
  box: SecretBox,
  keys: SqlSealingKeysRepository,
  seal: DocumentSeal,
  io: CliIo,
  json: boolean,
): Promise<number> {
  if (seal.settingsGiveKey())
    throw new CommandFailure(
      'seal rotate --discard-unreadable: signed PDFs are sealed with the certificate of SEAL_P12_FILE, which no stored key affects: nothing was changed',
    );
  const unreadable = (await storedSecrets(store.db)).filter(({ stored, place }) => {
    try {
      box.open(stored, place);
      return false;
    } catch (error) {
      if (error instanceof SecretUnreadable) return true;
      throw error;
    }
  });
  if (!unreadable.some(({ place }) => place.table === 'sealing_certificates')) {
    throw new CommandFailure(
      'seal rotate --discard-unreadable: every sealing key opens with SECRETS_KEY, the seal is healthy: nothing was changed (seal rotate makes a new certificate)',
    );
  }
  const discarded = await keys.discardUnreadableKeys();
  let key: SealingKey;
  try {
    key = await seal.rotate();
  } catch (error) {
    throw error instanceof SealSettingError ? new ConfigError([error.message]) : error;
  }
  const others = unreadable.filter(({ place }) => place.table !== 'sealing_certificates');
  const clients = others
    .filter(({ place }) => place.table === 'client_applications')
    .map((v) => v.place.rowId);
  const endpoints = others
    .filter(({ place }) => place.table === 'webhook_endpoints')
    .map((v) => v.place.rowId);
  const unique = (ids: string[]) => [...new Set(ids)];
  if (json) {
    io.out(
      JSON.stringify({
        discarded_generations: discarded,
        ...describe(key),
        unreadable_client_secrets: unique(clients),
        unreadable_webhook_secrets: unique(endpoints),
      }),
    );
    return 0;
  }
  io.out(
    `discarded the private key${discarded.length === 1 ? '' : 's'} of sealing certificate${discarded.length === 1 ? '' : 's'} ${discarded.join(', ')}: no given key opens ${discarded.length === 1 ? 'it' : 'them'} (SECRETS_KEY, SECRETS_KEY_PREVIOUS)`,
  );
  for (const line of lines(key, true)) io.out(line);
  io.out(
    'Signed PDFs sealed before still verify: each carries its certificate, and the certificates are kept; only sealing with the discarded keys is no longer possible.',
  );
  for (const id of unique(clients))
    io.out(
      `client application ${id}: its consumer secret cannot be read either; its OAuth 1.0 requests get 401 (bearer tokens still work) until you run: facility-ops clients rotate ${id}`,
    );
  for (const id of unique(endpoints))
    io.out(
      `webhook endpoint ${id}: its signing secret cannot be read either; its deliveries fail and are retried until you run: facility-ops webhooks rotate-secret ${id}`,
    );
  return 0;
}
