/** Who a client application is, without its credentials. */
export interface ClientIdentity {
  id: string;
  companyId: string;
  name: string;
}

/** How a client application was made: by the first `start`, by `clients create`, or by an import. */
export type ClientKind = 'demo' | 'created' | 'imported';

/** A client application: one company's credentials (the secret is kept to verify signatures). */
export interface ClientApplication extends ClientIdentity {
  consumerKey: string;
  consumerSecret: string;
  createdAt: string;
  /** The secret a rotation replaced, accepted until `previousSecretExpiresAt`; null when none. */
  previousConsumerSecret?: string | null;
  previousSecretExpiresAt?: string | null;
}

/** A bearer token's client, with the instant the token stops being accepted (null: no end). */
export interface BearerClient extends ClientIdentity {
  expiresAt: string | null;
}

/** What `clients list` shows of a client application: never a secret. */
export interface ClientListing extends ClientIdentity {
  companyName: string;
  kind: ClientKind;
  consumerKey: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The end of the grace period of the credentials a rotation replaced; null when none is running. */
  previousValidUntil: string | null;
}

/** New credentials of a client application, the token as its hash. */
export interface RotatedCredentials {
  consumerSecret: string;
  tokenHash: string;
  now: string;
  /** Until when the replaced secret and tokens are still accepted (`now` for none). */
  graceUntil: string;
}

/** Where client applications, bearer token hashes and OAuth nonces are kept. */
export interface ClientsRepository {
  /**
   * The client of a consumer key, unless revoked, with its consumer secret (and the one a rotation
   * replaced, while accepted) opened; throws `SecretUnreadable` when the stored secret cannot be.
   */
  findByConsumerKey(consumerKey: string, now: string): Promise<ClientApplication | undefined>;
  /** The client a bearer token hash belongs to, unless revoked or the token expired (its secret is not read). */
  findByTokenHash(tokenHash: string, now: string): Promise<BearerClient | undefined>;
  /** The client and, when given, the hash of its bearer token, together. */
  insert(client: ClientApplication, tokenHash: string | null, kind?: ClientKind): Promise<void>;
  /**
   * Records a nonce; false when the same consumer already used it and it has not yet expired.
   * An expired record of the same nonce is taken over.
   */
  useNonce(consumerKey: string, nonce: string, now: string, expiresAt: string): Promise<boolean>;
  deleteExpiredNonces(now: string): Promise<number>;
  /** Records that the client authenticated at `at`. */
  noteUse(clientId: string, at: string): Promise<void>;
  /** Client applications, of one company or of all, oldest first. */
  list(now: string, companyId?: string): Promise<ClientListing[]>;
  find(clientId: string, now: string): Promise<ClientListing | undefined>;
  /** Revokes a client not yet revoked: false when there is none such. Its bearer tokens are deleted. */
  revoke(clientId: string, now: string): Promise<boolean>;
  /**
   * Gives a client not revoked a new secret and bearer token, the replaced ones accepted until
   * `graceUntil` (the replaced secret only when it can be read); false when there is none such.
   */
  rotate(clientId: string, credentials: RotatedCredentials): Promise<boolean>;
}
