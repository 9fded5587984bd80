import { LRUCache } from 'lru-cache';
import { hash, randomBytes } from 'node:crypto';
import type { Clock } from '../kernel/clock';
import type { Caller } from '../kernel/caller';
import type { RevisionTokens } from '../kernel/revisions';
import { DomainError, NUL_MESSAGE } from '../kernel/errors';
import { newId } from '../kernel/ids';
import { describePlace, SecretUnreadable } from '../kernel/secret-box';
import type {
  ClientApplication,
  ClientIdentity,
  ClientKind,
  ClientListing,
  ClientsRepository,
} from './auth.ports';
import {
  baseUri,
  parseOAuthHeader,
  sign,
  signatureBaseString,
  signaturesMatch,
  type SignatureMethod,
} from './oauth1';

/** What the transport knows of a request, enough to verify its credentials. */
export interface CredentialRequest {
  method: string;
  protocol: string;
  host: string;
  /** Path and query as sent. */
  url: string;
  authorization: string | undefined;
  /** Decoded form-encoded body parameters (empty for JSON bodies, which OAuth 1.0 does not sign). */
  formParams: Array<[string, string]>;
}

export interface NewClient {
  id: string;
  companyId: string;
  name: string;
  consumerKey: string;
  consumerSecret: string;
  bearerToken: string;
}

const INVALID = 'Invalid OAuth Request';

function unauthenticated(detail: string): DomainError {
  return new DomainError('unauthenticated', `${INVALID}: ${detail}`);
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The token of an `Authorization: Bearer <token>` header; null for any other header or none. */
function bearerTokenOf(authorization: string | undefined): string | null {
  const header = authorization?.trim();
  return header && /^Bearer\s/i.test(header) ? header.slice(7).trim() : null;
}

/**
 * Whether two header values are equal, in a time that depends on their length alone: a connection
 * may carry the requests of several clients (a proxy's), so one's token is never compared with
 * another's by an early-exit comparison.
 */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/** Bearer tokens are 16-512 characters: anything else is refused without a look-up. */
function plausibleToken(token: string): boolean {
  return token.length >= 16 && token.length <= 512;
}

function callerOf(client: ClientIdentity): Caller {
  return { clientId: client.id, companyId: client.companyId, name: client.name };
}

/**
 * How long a bearer token's client, once found, is reused without asking the database. Every
 * change of a client's credentials or state (`clients revoke|rotate`, an import) moves the
 * `credentials` revision counter in its transaction, and a kept caller is trusted only while the
 * counter is the one read before it was looked up: a revocation holds on every instance at once.
 * (Without a counter to read, as in the command line, a change shows within this time.) An unknown
 * token is never remembered, so a new one works at once. The lookup was a third of the work of
 * `GET /v1/:facility_id/flippers`.
 */
export const BEARER_CACHE_TTL_MS = 5_000;

/** How long a rotated client's replaced secret and bearer tokens are still accepted, by default. */
export const ROTATION_GRACE_HOURS = 24;

/** How often, at most, one instance records that a client was used. */
const LAST_USE_EVERY_MS = 60_000;

/** Kept callers or clients: each for BEARER_CACHE_TTL_MS after it was read, the 10,000 last used. */
function keptFor<Value extends object>(): LRUCache<string, Value> {
  return new LRUCache<string, Value>({ max: 10_000, ttl: BEARER_CACHE_TTL_MS, ttlResolution: 0 });
}

/** Where the service reports what the operator must fix and the caller must not see. */
export interface AuthLog {
  error(details: object, message: string): void;
}

/** Verifies one-legged OAuth 1.0 signatures and bearer tokens; issues client credentials. */
export class AuthService {
  private lastNoncePurge = 0;
  /** Callers by token hash: the token itself is never kept. */
  private bearerCallers = keptFor<Caller>();
  /**
   * Clients by consumer key, for as long as bearer callers: a gateway in front signs every call
   * with the same key, most of them revalidations answered 304. Unknown keys are never remembered.
   */
  private consumers = keptFor<ClientApplication>();
  /** Each connection's last known bearer header, kept no longer than its entry in bearerCallers. */
  private connectionBearers = new WeakMap<
    object,
    { authorization: string; caller: Caller; expiresAt: number }
  >();
  /** The `credentials` revision the kept callers and clients were read under. */
  private keptUnder: string | null = null;
  /** When each client's last use was last written by this instance (`performance.now()`). */
  private readonly lastUseWritten = new Map<string, number>();

  constructor(
    private readonly clients: ClientsRepository,
    private readonly clock: Clock,
    private readonly windowSeconds: number,
    private readonly log?: AuthLog,
    /** The revision counters; without them kept callers live their TTL (see BEARER_CACHE_TTL_MS). */
    private readonly revisions?: RevisionTokens,
  ) {}

  /** Drops every kept caller and client when the `credentials` revision is not the one they were read under. */
  private keepUnder(token: string): void {
    if (token === this.keptUnder) return;
    if (this.keptUnder !== null) {
      this.bearerCallers = keptFor<Caller>();
      this.consumers = keptFor<ClientApplication>();
      this.connectionBearers = new WeakMap();
    }
    this.keptUnder = token;
  }

  /** Whether what is kept may be trusted now, without waiting; false when only a query can say. */
  private keptIsCurrentNow(): boolean {
    if (this.revisions === undefined) return true;
    const token = this.revisions.tokenNow('credentials');
    if (token === null) return false;
    this.keepUnder(token);
    return true;
  }

  /** Reads the `credentials` revision before anything kept is used or looked up. */
  private async checkKept(): Promise<void> {
    if (this.revisions !== undefined) this.keepUnder(await this.revisions.token('credentials'));
  }

  /** Records the client's use, at most once a minute per instance, without holding the request. */
  private noteUse(clientId: string): void {
    const now = performance.now();
    const last = this.lastUseWritten.get(clientId);
    if (last !== undefined && now - last < LAST_USE_EVERY_MS) return;
    if (this.lastUseWritten.size >= 10_000) this.lastUseWritten.clear();
    this.lastUseWritten.set(clientId, now);
    this.clients.noteUse(clientId, this.clock.now().toISOString()).catch(() => {
      // Only a record for `clients list`; the next minute writes it again.
      this.lastUseWritten.delete(clientId);
    });
  }

  async authenticate(request: CredentialRequest): Promise<Caller> {
    const bearer = bearerTokenOf(request.authorization);
    if (bearer !== null) return this.authenticateBearer(bearer);
    const header = request.authorization?.trim();
    const query = queryParams(request.url);
    let oauth: Map<string, string>;
    let requestParams: Array<[string, string]>;
    if (header && /^OAuth(\s|$)/i.test(header)) {
      const parsed = parseOAuthHeader(header);
      if (!parsed) throw unauthenticated('malformed Authorization header');
      oauth = parsed;
      requestParams = [...query, ...request.formParams];
    } else if (query.some(([k]) => k === 'oauth_consumer_key')) {
      oauth = new Map(query.filter(([k]) => k.startsWith('oauth_')));
      requestParams = [...query.filter(([k]) => !k.startsWith('oauth_')), ...request.formParams];
    } else if (request.formParams.some(([k]) => k === 'oauth_consumer_key')) {
      // RFC 5849 section 3.5.2: the protocol parameters in a form-encoded body.
      oauth = new Map(request.formParams.filter(([k]) => k.startsWith('oauth_')));
      requestParams = [...query, ...request.formParams.filter(([k]) => !k.startsWith('oauth_'))];
    } else if (header) {
      throw unauthenticated('unsupported Authorization scheme');
    } else {
      throw unauthenticated('credentials missing');
    }
    for (const [name, value] of oauth) {
      // The query and body were checked at the edge; a header's values are checked here.
      if (name.includes('\u0000') || value.includes('\u0000'))
        throw DomainError.invalidParameter(name, NUL_MESSAGE);
    }
    return this.authenticateOAuth(request, oauth, requestParams);
  }

  /**
   * The caller of an `Authorization` header whose bearer token was verified in the last
   * BEARER_CACHE_TTL_MS, at once; null for anything else (ask `authenticate`, which also says what
   * is wrong). `connection` is the request's connection: the same header on it again (every request
   * of a keep-alive client) is known without hashing the token, until the caller's entry expires.
   */
  knownCaller(connection: object, authorization: string | undefined): Caller | null {
    if (authorization === undefined || !this.keptIsCurrentNow()) return null;
    const last = this.connectionBearers.get(connection);
    if (
      last !== undefined &&
      performance.now() < last.expiresAt &&
      sameText(last.authorization, authorization)
    ) {
      this.noteUse(last.caller.clientId);
      return last.caller;
    }
    const token = bearerTokenOf(authorization);
    if (token === null || !plausibleToken(token)) return null;
    const tokenHash = hashToken(token);
    const caller = this.bearerCallers.get(tokenHash);
    if (caller === undefined) return null;
    this.connectionBearers.set(connection, {
      authorization,
      caller,
      expiresAt: performance.now() + this.bearerCallers.getRemainingTTL(tokenHash),
    });
    this.noteUse(caller.clientId);
    return caller;
  }

  private async authenticateBearer(token: string): Promise<Caller> {
    if (!plausibleToken(token)) throw unauthenticated('unknown bearer token');
    const tokenHash = hashToken(token);
    await this.checkKept();
    const cached = this.bearerCallers.get(tokenHash);
    if (cached) {
      this.noteUse(cached.clientId);
      return cached;
    }
    const row = await this.clients.findByTokenHash(tokenHash, this.clock.now().toISOString());
    if (!row) throw unauthenticated('unknown bearer token');
    const caller = Object.freeze(callerOf(row));
    // A token in its grace period after a rotation is looked up each time, so it ends on the dot.
    if (row.expiresAt === null) this.bearerCallers.set(tokenHash, caller);
    this.noteUse(caller.clientId);
    return caller;
  }

  private async authenticateOAuth(
    request: CredentialRequest,
    oauth: Map<string, string>,
    requestParams: Array<[string, string]>,
  ): Promise<Caller> {
    const consumerKey = oauth.get('oauth_consumer_key');
    const signature = oauth.get('oauth_signature');
    const method = oauth.get('oauth_signature_method');
    const timestamp = oauth.get('oauth_timestamp');
    const nonce = oauth.get('oauth_nonce');
    const token = oauth.get('oauth_token');
    const version = oauth.get('oauth_version');

    if (!consumerKey || !signature || !method || !timestamp || !nonce) {
      throw unauthenticated(
        'oauth_consumer_key, oauth_signature, oauth_signature_method, oauth_timestamp and oauth_nonce are required',
      );
    }
    if (method !== 'HMAC-SHA1' && method !== 'HMAC-SHA256') {
      throw unauthenticated('oauth_signature_method must be HMAC-SHA1 or HMAC-SHA256');
    }
    if (token) throw unauthenticated('oauth_token must be empty for one-legged requests');
    if (version !== undefined && version !== '1.0') throw unauthenticated('oauth_version must be 1.0');
    if (nonce.length > 256) throw unauthenticated('oauth_nonce is too long');
    const seconds = /^[0-9]{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
    const now = this.clock.now().getTime();
    if (!Number.isFinite(seconds) || Math.abs(now / 1000 - seconds) > this.windowSeconds) {
      throw unauthenticated('oauth_timestamp is outside the accepted window');
    }

    await this.checkKept();
    let client = this.consumers.get(consumerKey);
    if (!client) {
      client = await this.findConsumer(consumerKey, new Date(now).toISOString());
      if (!client) throw unauthenticated('unknown oauth_consumer_key');
      this.consumers.set(consumerKey, client);
    }

    const signed: Array<[string, string]> = [...requestParams];
    for (const [k, v] of oauth) if (k !== 'oauth_signature' && k !== 'realm') signed.push([k, v]);
    const base = signatureBaseString({
      method: request.method,
      baseUri: baseUri(request.protocol, request.host, request.url),
      params: signed,
    });
    const previousAccepted =
      client.previousConsumerSecret != null &&
      client.previousSecretExpiresAt != null &&
      Date.parse(client.previousSecretExpiresAt) > now;
    if (
      !signaturesMatch(sign(base, client.consumerSecret, method as SignatureMethod), signature) &&
      !(
        previousAccepted &&
        signaturesMatch(sign(base, client.previousConsumerSecret!, method as SignatureMethod), signature)
      )
    ) {
      throw unauthenticated('signature does not match');
    }

    // The nonce is recorded only once the signature holds, so strangers cannot burn a client's nonces.
    const expiresAt = new Date(now + this.windowSeconds * 2000).toISOString();
    const fresh = await this.clients.useNonce(consumerKey, nonce, new Date(now).toISOString(), expiresAt);
    if (!fresh) throw unauthenticated('oauth_nonce was already used');
    await this.purgeNoncesNowAndThen(now);
    this.noteUse(client.id);
    return callerOf(client);
  }

  /**
   * The client of a consumer key, its secret opened. A secret that cannot be opened (wrong key,
   * altered or moved value) refuses the request and tells the operator which row, never the secret.
   */
  private async findConsumer(consumerKey: string, now: string): Promise<ClientApplication | undefined> {
    try {
      return await this.clients.findByConsumerKey(consumerKey, now);
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      this.log?.error(
        { table: error.place.table, column: error.place.column, rowId: error.place.rowId },
        `stored secret cannot be read: ${describePlace(error.place)}: ${error.reason}`,
      );
      throw unauthenticated("the client's consumer secret cannot be read by the service; ask its operator");
    }
  }

  private async purgeNoncesNowAndThen(now: number): Promise<void> {
    if (now - this.lastNoncePurge < 60_000) return;
    this.lastNoncePurge = now;
    await this.clients.deleteExpiredNonces(new Date(now).toISOString());
  }

  /** Client applications, of one company or of all, oldest first; never a secret. */
  listClients(companyId?: string): Promise<ClientListing[]> {
    return this.clients.list(this.clock.now().toISOString(), companyId);
  }

  findClient(clientId: string): Promise<ClientListing | undefined> {
    return this.clients.find(clientId, this.clock.now().toISOString());
  }

  /** Revokes a client: false when it is unknown or already revoked, and nothing changed. */
  revokeClient(clientId: string): Promise<boolean> {
    return this.clients.revoke(clientId, this.clock.now().toISOString());
  }

  /**
   * A new consumer secret and bearer token for a client not revoked (the consumer key stays); the
   * replaced ones are accepted for `graceHours` more. Null when it is unknown or revoked.
   */
  async rotateClient(
    clientId: string,
    graceHours: number,
  ): Promise<{ consumerSecret: string; bearerToken: string; graceUntil: string } | null> {
    const now = this.clock.now();
    const consumerSecret = randomBytes(32).toString('base64url');
    const bearerToken = randomBytes(32).toString('base64url');
    const graceUntil = new Date(now.getTime() + graceHours * 3_600_000).toISOString();
    const rotated = await this.clients.rotate(clientId, {
      consumerSecret,
      tokenHash: hashToken(bearerToken),
      now: now.toISOString(),
      graceUntil,
    });
    return rotated ? { consumerSecret, bearerToken, graceUntil } : null;
  }

  /** Makes a client application with fresh credentials; the secret and token are shown only here. */
  async createClient(companyId: string, name: string, kind?: ClientKind): Promise<NewClient> {
    const created: NewClient = {
      id: newId(),
      companyId,
      name,
      consumerKey: randomBytes(16).toString('hex'),
      consumerSecret: randomBytes(32).toString('base64url'),
      bearerToken: randomBytes(32).toString('base64url'),
    };
    await this.clients.insert(
      {
        id: created.id,
        companyId,
        name,
        consumerKey: created.consumerKey,
        consumerSecret: created.consumerSecret,
        createdAt: this.clock.now().toISOString(),
      },
      hashToken(created.bearerToken),
      kind,
    );
    return created;
  }
}

function queryParams(url: string): Array<[string, string]> {
  const index = url.indexOf('?');
  if (index < 0) return [];
  return [...new URLSearchParams(url.slice(index + 1))];
}
