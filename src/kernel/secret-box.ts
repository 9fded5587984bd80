/**
 * Where a stored secret lives: its table, column and row. A sealed value is bound to its place (the
 * associated data of the AEAD), so a value copied to another row or column does not open.
 */
export interface SecretPlace {
  readonly table: string;
  readonly column: string;
  /** The row's id (for a secret outside the database, a name such as a company id or `default`). */
  readonly rowId: string;
}

/** How secrets are kept: sealed under the operator's key, or in clear (no key, or chosen). */
export type SecretStorage = 'encrypted' | 'clear' | 'clear-chosen';

/**
 * Seals secrets for storage and opens them again (the port; `src/adapters/secrets/` implements it
 * with AES-256-GCM, or in clear without a key). Any store of a secret writes `seal(plain, place)`
 * and reads `open(stored, place)` with the same place; a value is readable only at its place.
 */
export interface SecretBox {
  readonly storage: SecretStorage;
  /** The id of the key new values are sealed under; null in clear storage. */
  readonly currentKeyId: string | null;
  /** The stored form of `plain` at `place`: `enc:v1:<key id>:<base64>`, or `plain` itself in clear storage. */
  seal(plain: string, place: SecretPlace): string;
  /** The secret a stored value holds; throws `SecretUnreadable` (naming the place) when it cannot be opened. */
  open(stored: string, place: SecretPlace): string;
  /** Whether a stored value should be written again: clear while a key is set, or sealed under an older key. */
  needsReseal(stored: string): boolean;
}

/** A stored secret that cannot be opened: wrong or missing key, tampered, or moved from another row. */
export class SecretUnreadable extends Error {
  constructor(
    readonly place: SecretPlace,
    readonly reason: string,
  ) {
    super(`${describePlace(place)}: the stored secret cannot be read (${reason})`);
    this.name = 'SecretUnreadable';
  }
}

/** `client_applications.consumer_secret of 3f1c...`: a place as a log line names it. */
export function describePlace(place: SecretPlace): string {
  return `${place.table}.${place.column} of ${place.rowId}`;
}
