import { isIP } from 'node:net';
import { DomainError, problem, type Path, type Problem } from '../../kernel/errors';
import type { OutboxStatus } from '../outbox/outbox.types';
import { OUTBOX_STATUSES } from '../outbox/outbox.types';
import type { DeliveryOutcome } from '../../kernel/delivery';
import type { Clock } from '../../kernel/clock';
import { isUuid, newId, normalizeId } from '../../kernel/ids';
import { parseSlice, type ConnectionArgs, type Slice, type SliceRequest } from '../../kernel/connections';
import { toStoredInstant } from '../../kernel/time';
import {
  destinationShapeProblem,
  hostOf,
  isLocalName,
  isPublicAddress,
  normalizeHost,
} from './webhooks.addresses';
import type { HostResolver, WebhookEndpointsRepository, WebhookReads } from './webhooks.ports';
import { SecretUnreadable } from '../../kernel/secret-box';
import { newWebhookSecret } from './webhooks.signature';
import type {
  CreateWebhookEndpointCommand,
  EndpointScope,
  EndpointWithSecret,
  StoredWebhookEndpoint,
  WebhookCatalogue,
  WebhookDelivery,
  WebhookEndpoint,
} from './webhooks.types';

export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;
/** Endpoints a company may register. */
export const MAX_ENDPOINTS_PER_COMPANY = 20;
/** How long the secret a rotation replaced still signs deliveries. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;
/** Deliveries an endpoint lists: 20 by default, at most 100. */
export const DELIVERY_LIST_LIMITS = { default: 20, max: 100 } as const;

/** The list a cursor of an endpoint's deliveries names. */
export const DELIVERY_CURSOR_LIST = 'WebhookEndpoint.deliveries';

export interface WebhooksOptions {
  /**
   * Hosts (names or addresses, lower-case) that may be reached over plain http and at private
   * addresses: WEBHOOK_ALLOW_HOSTS (loopback in tests, an internal receiver in some deployments).
   */
  allowHosts: readonly string[];
  /** The event types an endpoint may ask for, in the docs' order (src/modules.ts composes them). */
  eventTypes: WebhookCatalogue;
}

/** An endpoint as callers see it: everything but its secrets. */
export function publicEndpoint(stored: StoredWebhookEndpoint): WebhookEndpoint {
  const { secrets: _secrets, ...endpoint } = stored;
  return endpoint;
}

const blank = (value: unknown): value is null | undefined | '' =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Webhook endpoints of a company: registering them (the URL checked for shape and destination, the
 * secret made and shown once), listing, disabling and enabling, rotating the secret (the old one
 * keeps signing for a day), and their deliveries, any of which can be sent again.
 */
export class WebhooksService implements WebhookReads {
  private readonly allowHosts: ReadonlySet<string>;
  private readonly eventTypes: WebhookCatalogue;
  /** Hears how each delivery attempt ended (metrics count them). */
  onDelivery: ((outcome: DeliveryOutcome) => void) | null = null;

  constructor(
    private readonly repository: WebhookEndpointsRepository,
    private readonly resolver: HostResolver,
    private readonly clock: Clock,
    private readonly outbox: { announce(): void },
    options: WebhooksOptions,
  ) {
    this.allowHosts = new Set(options.allowHosts.map(normalizeHost));
    this.eventTypes = options.eventTypes;
  }

  /**
   * Registers an endpoint of the company: `url` (https, or http for an allowed host; never at a
   * private or loopback address unless allowed), the event types it wants, an optional description.
   * Every problem is named at once (400/4) and nothing is written unless all pass.
   */
  async createEndpoint(
    companyId: string,
    command: CreateWebhookEndpointCommand,
  ): Promise<EndpointWithSecret> {
    const problems: Problem[] = [];
    const url = this.readUrl(command.url, problems);
    const eventTypes = readEventTypes(this.eventTypes, command.eventTypes, problems);
    const description = readDescription(command.description, problems);
    if (problems.length > 0 || url === null) throw DomainError.invalid(problems);
    await this.checkDestination(url, ['url']);
    if ((await this.repository.countOfCompany(companyId)) >= MAX_ENDPOINTS_PER_COMPANY) {
      throw DomainError.actionFailed(
        ['url'],
        `the company has ${MAX_ENDPOINTS_PER_COMPANY} endpoints already; disable or reuse one`,
      );
    }
    const secret = newWebhookSecret();
    const endpoint: StoredWebhookEndpoint = {
      id: newId(),
      companyId,
      url: url.toString(),
      description,
      eventTypes,
      createdAt: toStoredInstant(this.clock.now()),
      secretRotatedAt: null,
      previousSecretExpiresAt: null,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      secrets: { current: secret, previous: null, previousExpiresAt: null },
    };
    await this.repository.insert(endpoint);
    return { endpoint: publicEndpoint(endpoint), secret };
  }

  /** Reports how a delivery attempt ended to whoever listens (`onDelivery`). */
  reportDelivery(outcome: DeliveryOutcome): void {
    this.onDelivery?.(outcome);
  }

  /** The company's endpoints, oldest first. */
  async endpointsOfCompany(companyId: string): Promise<WebhookEndpoint[]> {
    return this.repository.ofCompany(companyId);
  }

  /** The endpoint, when it exists and is in scope; NOT_FOUND otherwise (another company's too). */
  async endpointFor(scope: EndpointScope, id: string, path: Path = ['id']): Promise<WebhookEndpoint> {
    return this.scoped(scope, id, path);
  }

  /** Stops deliveries to the endpoint; deliveries due meanwhile fail and can be replayed later. */
  async disable(scope: EndpointScope, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.scoped(scope, id, ['id']);
    if (endpoint.disabledAt) return endpoint;
    const at = toStoredInstant(this.clock.now());
    await this.repository.setDisabled(endpoint.id, at, 'manual');
    return { ...endpoint, disabledAt: at, disabledReason: 'manual' };
  }

  /** Delivers to the endpoint again (also one the service disabled for failing), its failures forgotten. */
  async enable(scope: EndpointScope, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.scoped(scope, id, ['id']);
    if (!endpoint.disabledAt && !endpoint.failingSince) return endpoint;
    await this.repository.setDisabled(endpoint.id, null, null);
    return { ...endpoint, disabledAt: null, disabledReason: null, failingSince: null };
  }

  /**
   * Makes a new secret, shown only now. For a day the secret it replaces still signs too (each
   * delivery carries both signatures), so a receiver can switch without missing one.
   */
  async rotateSecret(scope: EndpointScope, id: string): Promise<EndpointWithSecret> {
    const found = await this.scoped(scope, id, ['id']);
    // The operator may rotate a secret the service cannot read (sealed under a lost SECRETS_KEY):
    // that is the way out, and the old secret, which signs nothing, is not kept.
    const endpoint =
      scope === 'operator'
        ? await this.repository.find(found.id).catch((error: unknown) => {
            if (error instanceof SecretUnreadable) return { ...found, secrets: null };
            throw error;
          })
        : await this.withSecrets(found, ['id']);
    if (!endpoint) throw DomainError.notFound(['id'], 'webhook endpoint', found.id);
    const now = this.clock.now();
    const rotatedAt = toStoredInstant(now);
    const secret = newWebhookSecret();
    const previous = endpoint.secrets?.current ?? null;
    const previousExpiresAt =
      previous === null ? null : toStoredInstant(new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS));
    const secrets = { current: secret, previous, previousExpiresAt };
    await this.repository.replaceSecrets(endpoint.id, secrets, rotatedAt);
    return {
      endpoint: publicEndpoint({
        ...endpoint,
        secrets,
        secretRotatedAt: rotatedAt,
        previousSecretExpiresAt: previousExpiresAt,
      }),
      secret,
    };
  }

  /** The endpoint's latest deliveries, newest first (20 by default, at most 100), optionally of one status. */
  deliveriesOf(
    endpoint: Pick<WebhookEndpoint, 'id'>,
    query: { first?: number | null; status?: string | null } = {},
  ): Promise<WebhookDelivery[]> {
    const first = query.first ?? DELIVERY_LIST_LIMITS.default;
    if (!Number.isInteger(first) || first < 1) {
      throw DomainError.invalidParameter(['first'], 'must be a whole number of at least 1');
    }
    let status: OutboxStatus | undefined;
    if (!blank(query.status)) {
      status = OUTBOX_STATUSES.find((s) => s === query.status);
      if (!status) {
        throw DomainError.invalidParameter(['status'], `must be one of ${OUTBOX_STATUSES.join(', ')}`);
      }
    }
    return this.repository.deliveries(endpoint.id, Math.min(first, DELIVERY_LIST_LIMITS.max), status);
  }

  /** The same deliveries walked by cursor (created_at, then id, newest first), bound to the endpoint. */
  deliveriesConnection(
    endpoint: Pick<WebhookEndpoint, 'id'>,
    query: { status?: string | null },
    args: ConnectionArgs,
  ): Promise<Slice<WebhookDelivery>> {
    const problems: Problem[] = [];
    let slice: SliceRequest | null = null;
    try {
      slice = parseSlice(args, { list: DELIVERY_CURSOR_LIST, owner: normalizeId(endpoint.id) }, 2);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push(...error.problems);
    }
    let status: OutboxStatus | undefined;
    if (!blank(query.status)) {
      status = OUTBOX_STATUSES.find((s) => s === query.status);
      if (!status) problems.push(problem(['status'], `must be one of ${OUTBOX_STATUSES.join(', ')}`));
    }
    if (problems.length > 0 || slice === null) throw DomainError.invalid(problems);
    return this.repository.deliverySlice(endpoint.id, slice, status);
  }

  /** A delivery of an endpoint in scope, as it is now; null when there is none. */
  async deliveryInScope(scope: EndpointScope, messageId: string): Promise<WebhookDelivery | null> {
    const delivery = isUuid(messageId)
      ? await this.repository.findDelivery(normalizeId(messageId))
      : undefined;
    const endpoint = delivery ? await this.repository.findEndpoint(delivery.endpointId) : undefined;
    return delivery && endpoint && inScope(scope, endpoint) ? delivery : null;
  }

  /**
   * Sends a delivery again, with the same `webhook-id` and body (a new timestamp and signature):
   * due at once with a fresh count of attempts. NOT_FOUND for a delivery not in scope; ACTION_FAILED
   * while it is being sent, or while its endpoint is disabled.
   */
  async replay(scope: EndpointScope, messageId: string): Promise<WebhookDelivery> {
    const delivery = isUuid(messageId)
      ? await this.repository.findDelivery(normalizeId(messageId))
      : undefined;
    const endpoint = delivery ? await this.repository.findEndpoint(delivery.endpointId) : undefined;
    if (!delivery || !endpoint || !inScope(scope, endpoint)) {
      throw DomainError.notFound(['id'], 'webhook delivery', messageId);
    }
    if (endpoint.disabledAt) {
      throw DomainError.actionFailed(['id'], 'its endpoint is disabled; enable the endpoint first');
    }
    const at = toStoredInstant(this.clock.now());
    if (!(await this.repository.requeueDelivery(delivery.id, at))) {
      throw DomainError.actionFailed(
        ['id'],
        'is being delivered right now; replay it once this attempt ends',
      );
    }
    this.outbox.announce();
    return (await this.repository.findDelivery(delivery.id)) ?? delivery;
  }

  /** The endpoint (its secrets not read), when it exists and is in scope; NOT_FOUND otherwise. */
  private async scoped(scope: EndpointScope, id: string, path: Path): Promise<WebhookEndpoint> {
    const endpoint = isUuid(id) ? await this.repository.findEndpoint(normalizeId(id)) : undefined;
    if (!endpoint || !inScope(scope, endpoint)) throw DomainError.notFound(path, 'webhook endpoint', id);
    return endpoint;
  }

  /** The endpoint with its secrets; one whose stored secret cannot be opened fails the action, not the service. */
  private async withSecrets(endpoint: WebhookEndpoint, path: Path): Promise<StoredWebhookEndpoint> {
    try {
      const stored = await this.repository.find(endpoint.id);
      if (!stored) throw DomainError.notFound(path, 'webhook endpoint', endpoint.id);
      return stored;
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      throw DomainError.actionFailed(
        path,
        "the endpoint's signing secret cannot be read by the service; ask its operator",
      );
    }
  }

  /** The URL's shape: absolute http(s), no credentials or fragment, https unless the host is allowed. */
  private readUrl(raw: unknown, problems: Problem[]): URL | null {
    if (blank(raw)) {
      problems.push(problem(['url'], 'is required'));
      return null;
    }
    if (typeof raw !== 'string') {
      problems.push(problem(['url'], 'must be a string'));
      return null;
    }
    const text = raw.trim();
    if (text.length > MAX_URL_LENGTH) {
      problems.push(problem(['url'], `must be at most ${MAX_URL_LENGTH} characters`));
      return null;
    }
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      problems.push(problem(['url'], 'must be an absolute URL (https://...)'));
      return null;
    }
    const why = this.shapeProblem(url);
    if (why) {
      problems.push(problem(['url'], why));
      return null;
    }
    return url;
  }

  private shapeProblem(url: URL): string | null {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https:// URL';
    if (url.hostname === '') return 'must name a host';
    if (url.username || url.password) return 'must not carry a user name or password';
    if (url.hash) return 'must not have a #fragment';
    const destination = destinationShapeProblem(url);
    if (destination) return destination;
    if (url.protocol === 'http:' && !this.isAllowed(hostOf(url))) {
      return 'must be an https:// URL (plain http only for hosts in WEBHOOK_ALLOW_HOSTS)';
    }
    return null;
  }

  /** Whether the host is one of WEBHOOK_ALLOW_HOSTS. */
  isAllowed(host: string): boolean {
    return this.allowHosts.has(normalizeHost(host));
  }

  /**
   * Refuses a host that is (or resolves to) a private, loopback or otherwise non-public address,
   * unless it is allowed. A name that does not resolve now is taken: every delivery checks again.
   */
  private async checkDestination(url: URL, path: Path): Promise<void> {
    const host = hostOf(url);
    if (this.isAllowed(host)) return;
    const refuse = (detail: string) =>
      DomainError.invalidParameter(path, `must reach a public address: ${detail} (see WEBHOOK_ALLOW_HOSTS)`);
    if (isIP(host)) {
      if (!isPublicAddress(host)) throw refuse(`${host} is a private, loopback or reserved address`);
      return;
    }
    if (isLocalName(host)) throw refuse(`${host} is this machine`);
    const addresses = await this.resolver.addresses(host);
    const inner = addresses.find((address) => !isPublicAddress(address));
    if (inner) throw refuse(`${host} resolves to ${inner}`);
  }
}

function inScope(scope: EndpointScope, endpoint: WebhookEndpoint): boolean {
  return scope === 'operator' || scope.companyId === endpoint.companyId;
}

function readEventTypes(
  catalogue: WebhookCatalogue,
  raw: readonly string[] | null | undefined,
  problems: Problem[],
): string[] {
  if (raw === undefined || raw === null || raw.length === 0) {
    problems.push(problem(['eventTypes'], `must name at least one of ${catalogue.join(', ')}`));
    return [];
  }
  const wanted = new Set<string>();
  raw.forEach((value, index) => {
    const name = typeof value === 'string' ? value.trim() : value;
    if (typeof name === 'string' && catalogue.includes(name)) wanted.add(name);
    else problems.push(problem(['eventTypes', index], `is not an event type (${catalogue.join(', ')})`));
  });
  return catalogue.filter((type) => wanted.has(type));
}

function readDescription(raw: unknown, problems: Problem[]): string | null {
  if (blank(raw)) return null;
  if (typeof raw !== 'string') {
    problems.push(problem(['description'], 'must be a string'));
    return null;
  }
  const text = raw.trim();
  if ([...text].length > MAX_DESCRIPTION_LENGTH) {
    problems.push(problem(['description'], `must be at most ${MAX_DESCRIPTION_LENGTH} characters`));
    return null;
  }
  return text;
}

export type { EndpointScope };
