import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import {
  AesGcmSecretBox,
  ClearSecretBox,
  keyIdOf,
  SecretKeys,
} from '../../src/adapters/secrets/aes-gcm.secret-box';
import { loadConfig } from '../../src/config';
import { configProblems } from '../cli/cli-support';
import { SecretUnreadable, type SecretPlace } from '../../src/kernel/secret-box';

const key1 = randomBytes(32);
const key2 = randomBytes(32);
const b64 = (key: Buffer) => key.toString('base64');
const place: SecretPlace = { table: 'client_applications', column: 'consumer_secret', rowId: 'row-a' };
const SECRET = 'the-consumer-secret-0123456789';

const problemsOf = configProblems;

/** The SecretUnreadable a call throws (failing the test when it throws nothing or something else). */
function unreadable(call: () => unknown): SecretUnreadable {
  try {
    call();
  } catch (error) {
    if (error instanceof SecretUnreadable) return error;
    throw error;
  }
  throw new Error('expected SecretUnreadable');
}

describe('the secret box (AES-256-GCM)', () => {
  const box = new AesGcmSecretBox(new SecretKeys([key1]));

  it('seals to a self-describing form that names the key and opens again at the same place', () => {
    const sealed = box.seal(SECRET, place);
    expect(sealed).toMatch(new RegExp(`^enc:v1:${keyIdOf(key1)}:[A-Za-z0-9+/]+=*$`));
    expect(sealed).not.toContain(SECRET);
    expect(box.open(sealed, place)).toBe(SECRET);
    // A fresh iv each time: the same secret never seals to the same text.
    expect(box.seal(SECRET, place)).not.toBe(sealed);
  });

  it('refuses a value copied to another row, another column or another table, naming the place', () => {
    const sealed = box.seal(SECRET, place);
    for (const other of [
      { ...place, rowId: 'row-b' },
      { ...place, column: 'previous_secret' },
      { ...place, table: 'webhook_endpoints' },
    ]) {
      const error = unreadable(() => box.open(sealed, other));
      expect(error.place).toEqual(other);
      expect(error.message).toContain(`${other.table}.${other.column} of ${other.rowId}`);
      expect(error.message).not.toContain(SECRET);
    }
  });

  it('refuses an altered value: a flipped byte, a cut one, a changed key id, a malformed one', () => {
    const sealed = box.seal(SECRET, place);
    const [prefix, data] = [sealed.slice(0, 17), Buffer.from(sealed.slice(17), 'base64')];
    data[data.length - 1] ^= 1;
    expect(unreadable(() => box.open(prefix + data.toString('base64'), place)).reason).toMatch(
      /does not open it: altered, or copied/,
    );
    expect(unreadable(() => box.open(prefix + 'AAAA', place)).reason).toMatch(/cut short/);
    expect(
      unreadable(() => box.open(sealed.replace(/^enc:v1:[0-9a-f]{8}/, 'enc:v1:00000000'), place)).reason,
    ).toMatch(/sealed under key 00000000, which is not SECRETS_KEY/);
    expect(unreadable(() => box.open('enc:v9:whatever', place)).reason).toMatch(/not in the enc:v1/);
  });

  it('opens values of a previous key, seals under the current one, and says which need sealing again', () => {
    const old = new AesGcmSecretBox(new SecretKeys([key1]));
    const changeOver = new AesGcmSecretBox(new SecretKeys([key2, key1]));
    const sealedOld = old.seal(SECRET, place);
    expect(changeOver.open(sealedOld, place)).toBe(SECRET);
    expect(changeOver.needsReseal(sealedOld)).toBe(true);
    const sealedNew = changeOver.seal(SECRET, place);
    expect(sealedNew.startsWith(`enc:v1:${keyIdOf(key2)}:`)).toBe(true);
    expect(changeOver.needsReseal(sealedNew)).toBe(false);
    expect(changeOver.needsReseal(SECRET)).toBe(true);
    // The old key alone does not know the new one.
    expect(unreadable(() => old.open(sealedNew, place)).reason).toContain(`key ${keyIdOf(key2)}`);
  });

  it('reads a value still in clear (before the first start with a key sealed it)', () => {
    expect(box.open(SECRET, place)).toBe(SECRET);
  });

  it('never shows its keys when inspected or serialized', () => {
    const keys = new SecretKeys([key1, key2]);
    const shown = `${JSON.stringify(keys)} ${inspect(keys)} ${inspect(box, { depth: 5 })}`;
    for (const key of [key1, key2]) {
      expect(shown).not.toContain(b64(key));
      expect(shown).not.toContain(key.toString('hex'));
    }
    expect(shown).toContain(keyIdOf(key1));
  });
});

describe('clear storage (no key)', () => {
  const box = new ClearSecretBox();

  it('keeps values as given', () => {
    expect(box.seal(SECRET, place)).toBe(SECRET);
    expect(box.open(SECRET, place)).toBe(SECRET);
  });

  it('refuses a sealed value rather than using its text as the secret', () => {
    const sealed = new AesGcmSecretBox(new SecretKeys([key1])).seal(SECRET, place);
    expect(unreadable(() => box.open(sealed, place)).reason).toBe(
      `it is encrypted under key ${keyIdOf(key1)} and no SECRETS_KEY is set`,
    );
  });
});

describe('SECRETS_KEY settings', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-key-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes a key, a key file (current first, then previous), and previous keys', () => {
    expect(loadConfig({ NODE_ENV: 'test', SECRETS_KEY: b64(key1) }).secrets).toMatchObject({
      storage: 'encrypted',
      keys: { currentId: keyIdOf(key1), ids: [keyIdOf(key1)] },
    });
    const file = path.join(dir, 'keys');
    fs.writeFileSync(file, `# rotated 2026-11-27\n${b64(key2)}\n\n${b64(key1)}\n`);
    expect(loadConfig({ NODE_ENV: 'test', SECRETS_KEY_FILE: file }).secrets.keys?.ids).toEqual([
      keyIdOf(key2),
      keyIdOf(key1),
    ]);
    expect(
      loadConfig({ NODE_ENV: 'test', SECRETS_KEY: b64(key2), SECRETS_KEY_PREVIOUS: b64(key1) }).secrets.keys
        ?.ids,
    ).toEqual([keyIdOf(key2), keyIdOf(key1)]);
    expect(loadConfig({ NODE_ENV: 'test' }).secrets).toEqual({ storage: 'clear', keys: null });
  });

  it('refuses a malformed, short or long key with one line naming the setting, never the value', () => {
    const short = randomBytes(16).toString('base64');
    const long = randomBytes(48).toString('base64');
    const cases: Array<[Record<string, string>, string]> = [
      [
        { SECRETS_KEY: 'not a key!' },
        'SECRETS_KEY: expected 32 random bytes in base64 (openssl rand -base64 32), got something that is not base64',
      ],
      [
        { SECRETS_KEY: short },
        'SECRETS_KEY: expected 32 random bytes in base64 (openssl rand -base64 32), got 16 bytes',
      ],
      [
        { SECRETS_KEY: long },
        'SECRETS_KEY: expected 32 random bytes in base64 (openssl rand -base64 32), got 48 bytes',
      ],
      [
        { SECRETS_KEY: b64(key1), SECRETS_KEY_PREVIOUS: `${b64(key2)},${short}` },
        'SECRETS_KEY_PREVIOUS: key 2: expected 32 random bytes in base64 (openssl rand -base64 32), got 16 bytes',
      ],
      [
        { SECRETS_KEY_PREVIOUS: b64(key1) },
        'SECRETS_KEY_PREVIOUS: set only with SECRETS_KEY or SECRETS_KEY_FILE',
      ],
      [
        { SECRETS_KEY: b64(key1), SECRETS_KEY_FILE: '/nowhere' },
        'SECRETS_KEY and SECRETS_KEY_FILE: set one, not both',
      ],
      [
        { SECRETS_KEY_FILE: path.join(dir, 'missing') },
        `SECRETS_KEY_FILE: no file ${path.join(dir, 'missing')}`,
      ],
    ];
    for (const [env, line] of cases) {
      const problems = problemsOf(env);
      expect(problems).toEqual([line]);
      for (const [name, value] of Object.entries(env))
        if (name !== 'SECRETS_KEY_FILE') expect(problems.join('\n')).not.toContain(value);
    }
    const empty = path.join(dir, 'empty');
    fs.writeFileSync(empty, '# no key yet\n');
    expect(problemsOf({ SECRETS_KEY_FILE: empty })).toEqual([`SECRETS_KEY_FILE: ${empty} holds no key`]);
    const bad = path.join(dir, 'bad');
    fs.writeFileSync(bad, `${b64(key1)}\n${short}\n`);
    expect(problemsOf({ SECRETS_KEY_FILE: bad })).toEqual([
      `SECRETS_KEY_FILE: ${bad} key 2: expected 32 random bytes in base64 (openssl rand -base64 32), got 16 bytes`,
    ]);
  });

  it('refuses production without a key, unless clear storage is chosen explicitly', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'SECRETS_KEY: production keeps stored secrets encrypted: set SECRETS_KEY or SECRETS_KEY_FILE (32 random bytes in base64: openssl rand -base64 32), or SECRETS_KEY=none-i-accept-clear-secrets to keep them in clear',
    ]);
    expect(
      loadConfig({ NODE_ENV: 'production', SECRETS_KEY: 'none-i-accept-clear-secrets' }).secrets,
    ).toEqual({
      storage: 'clear-chosen',
      keys: null,
    });
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: b64(key1) }).secrets.storage).toBe('encrypted');
  });
});
