/** Who a client application is, without its credentials. */
export interface ClientIdentity {
  id: string;
  companyId: string;
  name: string;
}

/** A client application: one company's credentials (the secret is kept to verify signatures). */
export interface ClientApplication extends ClientIdentity {
  consumerKey: string;
  consumerSecret: string;
  createdAt: string;
}

/** Where client applications, bearer token hashes and OAuth nonces are kept. */
export interface ClientsRepository {
  /** The client with its consumer secret opened; throws `SecretUnreadable` when the stored secret cannot be. */
  findByConsumerKey(consumerKey: string): Promise<ClientApplication | undefined>;
  /** The client a bearer token hash belongs to (its secret is not read). */
  findByTokenHash(tokenHash: string): Promise<ClientIdentity | undefined>;
  /** The client and, when given, the hash of its bearer token, together. */
  insert(client: ClientApplication, tokenHash: string | null): Promise<void>;
  /**
   * Records a nonce; false when the same consumer already used it and it has not yet expired.
   * An expired record of the same nonce is taken over.
   */
  useNonce(consumerKey: string, nonce: string, now: string, expiresAt: string): Promise<boolean>;
  deleteExpiredNonces(now: string): Promise<number>;
}
