import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import {
  SecretUnreadable,
  type SecretBox,
  type SecretPlace,
  type SecretStorage,
} from '../../kernel/secret-box';

/** Keys are 32 bytes: AES-256. */
export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'enc:';
const VERSION = 'v1';

/**
 * The operator's keys, the current one first (new values are sealed under it) and then the ones
 * before it (still opened, for the change-over of a rotation). Never printed: inspecting or
 * serializing it shows only the key ids.
 */
export class SecretKeys {
  private readonly byId: ReadonlyMap<string, Buffer>;
  readonly currentId: string;
  readonly ids: readonly string[];

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error('SecretKeys needs at least one key');
    const byId = new Map<string, Buffer>();
    for (const key of keys) {
      if (key.length !== SECRET_KEY_BYTES) throw new Error(`a key is ${SECRET_KEY_BYTES} bytes`);
      byId.set(keyIdOf(key), Buffer.from(key));
    }
    this.byId = byId;
    this.ids = [...byId.keys()];
    this.currentId = this.ids[0];
  }

  key(id: string): Buffer | undefined {
    return this.byId.get(id);
  }

  toJSON(): object {
    return { ids: this.ids };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SecretKeys { ids: ${this.ids.join(', ')} }`;
  }
}

/**
 * A key's id: the first 4 bytes of a SHA-256 over it, in hex. Derived, so nothing more is
 * configured, and short, so it names a key without saying anything useful about it.
 */
export function keyIdOf(key: Buffer): string {
  return hash('sha256', Buffer.concat([Buffer.from('facility-ops secrets key id\0'), key]), 'hex').slice(
    0,
    8,
  );
}

/** A base64 key, or why it is not one (never quoting the value). */
export function parseSecretKey(raw: string): Buffer | string {
  const text = raw.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    return `expected ${SECRET_KEY_BYTES} random bytes in base64 (openssl rand -base64 32), got something that is not base64`;
  }
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== SECRET_KEY_BYTES) {
    return `expected ${SECRET_KEY_BYTES} random bytes in base64 (openssl rand -base64 32), got ${key.length} byte${key.length === 1 ? '' : 's'}`;
  }
  return key;
}

/** Whether a stored value is in the sealed form (of any version). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The key id of a sealed value, or null when it is not in the v1 form. */
function keyIdOfSealed(stored: string): string | null {
  const match = /^enc:v1:([0-9a-f]{8}):/.exec(stored);
  return match ? match[1] : null;
}

function associatedData(keyId: string, place: SecretPlace): Buffer {
  return Buffer.from(
    [`${PREFIX}${VERSION}:${keyId}`, place.table, place.column, place.rowId].join('\0'),
    'utf8',
  );
}

/**
 * AES-256-GCM under the operator's keys. `enc:v1:<key id>:<base64 of iv | tag | ciphertext>`, a
 * fresh 12-byte iv per value, the associated data binding the format, key id, table, column and
 * row. A value still in clear (written before the key was set) opens as itself, until the start-up
 * pass or `secrets rotate-key` seals it.
 */
export class AesGcmSecretBox implements SecretBox {
  readonly storage: SecretStorage = 'encrypted';
  readonly currentKeyId: string;

  constructor(private readonly keys: SecretKeys) {
    this.currentKeyId = keys.currentId;
  }

  seal(plain: string, place: SecretPlace): string {
    const keyId = this.keys.currentId;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.key(keyId)!, iv);
    cipher.setAAD(associatedData(keyId, place));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    return `${PREFIX}${VERSION}:${keyId}:${sealed}`;
  }

  open(stored: string, place: SecretPlace): string {
    if (!isSealed(stored)) return stored;
    const keyId = keyIdOfSealed(stored);
    if (keyId === null) throw new SecretUnreadable(place, 'not in the enc:v1:<key id>:<data> form');
    const key = this.keys.key(keyId);
    if (!key) {
      throw new SecretUnreadable(
        place,
        `sealed under key ${keyId}, which is not SECRETS_KEY (${this.keys.currentId}) nor among SECRETS_KEY_PREVIOUS`,
      );
    }
    const data = Buffer.from(stored.slice(`${PREFIX}${VERSION}:${keyId}:`.length), 'base64');
    if (data.length < IV_BYTES + TAG_BYTES) throw new SecretUnreadable(place, 'the sealed data is cut short');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAAD(associatedData(keyId, place));
      decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      return plain.toString('utf8');
    } catch {
      throw new SecretUnreadable(
        place,
        `key ${keyId} does not open it: altered, or copied from another row or column`,
      );
    }
  }

  needsReseal(stored: string): boolean {
    return keyIdOfSealed(stored) !== this.keys.currentId;
  }
}

/**
 * No key: values are written as given and read as stored. A sealed value cannot be opened and says
 * so (the key was removed, or this instance was started without it).
 */
export class ClearSecretBox implements SecretBox {
  readonly currentKeyId = null;

  constructor(readonly storage: Exclude<SecretStorage, 'encrypted'> = 'clear') {}

  seal(plain: string, _place?: SecretPlace): string {
    return plain;
  }

  open(stored: string, place: SecretPlace): string {
    if (!isSealed(stored)) return stored;
    const keyId = keyIdOfSealed(stored);
    throw new SecretUnreadable(
      place,
      `it is encrypted${keyId ? ` under key ${keyId}` : ''} and no SECRETS_KEY is set`,
    );
  }

  needsReseal(_stored?: string): boolean {
    return false;
  }
}

/** The box for the configured storage: AES-256-GCM with keys, clear without. */
export function secretBoxFor(settings: { storage: SecretStorage; keys: SecretKeys | null }): SecretBox {
  if (settings.keys) return new AesGcmSecretBox(settings.keys);
  return new ClearSecretBox(settings.storage === 'clear-chosen' ? 'clear-chosen' : 'clear');
}
