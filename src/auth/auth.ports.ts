/** A client application: one company's credentials (the secret is kept to verify signatures). */
export interface ClientApplication {
  id: string;
  companyId: string;
  name: string;
  consumerKey: string;
  consumerSecret: string;
  createdAt: string;
}

/** Where client applications, bearer token hashes and OAuth nonces are kept. */
export interface ClientsRepository {
  findByConsumerKey(consumerKey: string): Promise<ClientApplication | undefined>;
  findByTokenHash(tokenHash: string): Promise<ClientApplication | undefined>;
  /** The client and, when given, the hash of its bearer token, together. */
  insert(client: ClientApplication, tokenHash: string | null): Promise<void>;
  /**
   * Records a nonce; false when the same consumer already used it and it has not yet expired.
   * An expired record of the same nonce is taken over.
   */
  useNonce(consumerKey: string, nonce: string, now: string, expiresAt: string): Promise<boolean>;
  deleteExpiredNonces(now: string): Promise<number>;
}
