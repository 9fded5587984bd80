import { secretBoxFor } from '../adapters/secrets/aes-gcm.secret-box';
import { upstreamSecretPlace, type Config } from '../config';
import { isUuid } from '../kernel/ids';
import { ResealRefused, resealSecrets, secretsByKey } from '../store/secret-columns';
import { CommandFailure, parseCommandArgs, UsageError } from './args';
import { describeDatabase, secretsStorageLine, withMigratedStore } from './context';
import type { CliIo } from './io';

const ACTIONS = ['status', 'rotate-key', 'encrypt'] as const;
type Action = (typeof ACTIONS)[number];

/** `secrets status|rotate-key|encrypt`: the stored secrets and the operator's key. */
export async function secretsCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (!ACTIONS.includes(action as Action)) {
    throw new UsageError(
      action
        ? `unknown secrets action "${action}" (${ACTIONS.join(', ')})`
        : `secrets needs an action: ${ACTIONS.join(', ')}`,
    );
  }
  switch (action as Action) {
    case 'status':
      parseCommandArgs(rest, {}, 0);
      return status(config, io);
    case 'rotate-key':
      parseCommandArgs(rest, {}, 0);
      return rotateKey(config, io);
    case 'encrypt':
      return encrypt(config, io, rest);
  }
}

/** How secrets are kept, and how many stored values are in clear and under each key. */
async function status(config: Config, io: CliIo): Promise<number> {
  const tally = await withMigratedStore(config, io, (store) => secretsByKey(store.db));
  io.out(secretsStorageLine(config));
  io.out(`stored secrets in ${describeDatabase(config)}:`);
  for (const [column, byKey] of Object.entries(tally)) {
    const parts = Object.entries(byKey).map(
      ([key, n]) => `${n} ${key === 'clear' ? 'in clear' : `under ${key}`}`,
    );
    io.out(`  ${column}: ${parts.join(', ')}`);
  }
  if (Object.keys(tally).length === 0) io.out('  none');
  return 0;
}

/**
 * Seals every stored secret not under SECRETS_KEY again under it, while the service runs. Every
 * value is opened first: one that cannot be (an unknown key, an altered value) writes nothing.
 */
async function rotateKey(config: Config, io: CliIo): Promise<number> {
  const keys = requireKey(config, 'rotate-key');
  const counts = await withMigratedStore(config, io, async (store) => {
    try {
      return await resealSecrets(store.db, secretBoxFor(config.secrets), 'every');
    } catch (error) {
      if (!(error instanceof ResealRefused)) throw error;
      throw new CommandFailure(
        `secrets rotate-key: ${error.unreadable.length} stored secret${error.unreadable.length === 1 ? '' : 's'} cannot be read; nothing was written`,
        error.unreadable.map((e) => e.message),
      );
    }
  });
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  io.out(
    `secrets rotate-key: ${total} stored secret${total === 1 ? '' : 's'} sealed again under key ${keys.currentId}`,
  );
  for (const [column, n] of Object.entries(counts)) if (n > 0) io.out(`  ${column}: ${n}`);
  io.out(
    `Every stored secret is now under key ${keys.currentId}. Once every instance runs with it as SECRETS_KEY, ` +
      'drop the old key from SECRETS_KEY_PREVIOUS (and encrypt UPSTREAM_* secrets again if they were sealed with it).',
  );
  return 0;
}

/**
 * Reads a secret from standard input and prints it sealed under SECRETS_KEY, for the gateway's
 * upstream credentials: `--company <id>` for an entry of UPSTREAM_CREDENTIALS_FILE, none for
 * UPSTREAM_CONSUMER_SECRET. The secret itself is never printed.
 */
async function encrypt(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { company: { type: 'string' } }, 0);
  const company = values.company;
  if (company !== undefined && (typeof company !== 'string' || !isUuid(company))) {
    throw new UsageError(`--company must be a company id (a UUID), got "${String(company)}"`);
  }
  requireKey(config, 'encrypt');
  if (!io.readStdin) throw new CommandFailure('secrets encrypt: no standard input to read the secret from');
  const secret = (await io.readStdin()).replace(/\r?\n$/, '');
  if (secret === '') throw new CommandFailure('secrets encrypt: standard input is empty; pipe the secret in');
  if (secret.startsWith('enc:'))
    throw new CommandFailure('secrets encrypt: the value given is already sealed');
  io.out(secretBoxFor(config.secrets).seal(secret, upstreamSecretPlace(company ?? null)));
  return 0;
}

function requireKey(config: Config, action: string) {
  const keys = config.secrets.keys;
  if (!keys) {
    throw new CommandFailure(
      `secrets ${action}: needs a key: set SECRETS_KEY or SECRETS_KEY_FILE (32 random bytes in base64: openssl rand -base64 32)`,
    );
  }
  return keys;
}
