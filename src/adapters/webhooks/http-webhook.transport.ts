import { lookup } from 'node:dns/promises';
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { DeliveryFailure } from '../../areas/outbox/transports.ports';
import {
  destinationShapeProblem,
  hostOf,
  isLocalName,
  isPublicAddress,
  normalizeHost,
} from '../../areas/webhooks/webhooks.addresses';
import type {
  HostResolver,
  WebhookHttpTransport,
  WebhookRequest,
  WebhookResponse,
} from '../../areas/webhooks/webhooks.ports';

/**
 * The system resolver (getaddrinfo, as the rest of the process resolves names). A name that does
 * not resolve within `timeoutMs` counts as not resolving (a delivery then fails and is retried).
 */
export class DnsHostResolver implements HostResolver {
  constructor(private readonly timeoutMs = 5_000) {}

  async addresses(host: string): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<string[]>((resolve) => {
      timer = setTimeout(() => resolve([]), this.timeoutMs);
      timer.unref();
    });
    const resolved = lookup(host, { all: true, verbatim: true }).then(
      (entries) => entries.map((entry) => entry.address),
      () => [],
    );
    try {
      return await Promise.race([resolved, gaveUp]);
    } finally {
      clearTimeout(timer);
    }
  }
}

export interface HttpWebhookTransportOptions {
  /** The whole delivery (resolving, connecting, sending, the answer's head and bounded body). */
  timeoutMs: number;
  /** How much of an answer's body is read; the connection is dropped after it. */
  maxResponseBytes: number;
  /** Hosts that may be plain http and at private addresses (WEBHOOK_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  resolver?: HostResolver;
}

const USER_AGENT = 'facility-ops-webhooks/1';
const STOPPED = 'the delivery worker stopped';

/**
 * POSTs webhooks with Node's own http and https. Safety: the host is resolved here and every address
 * it has must be public (unless the host is allowed), then the request connects to that checked
 * address, with the URL's host as `Host` header and TLS server name, so a name that resolves
 * differently a moment later (DNS rebinding) cannot steer it elsewhere. No redirect is followed,
 * the answer's body is read only up to a bound, and everything must end within the timeout.
 */
export class HttpWebhookTransport implements WebhookHttpTransport {
  private readonly allowHosts: ReadonlySet<string>;
  private readonly resolver: HostResolver;
  private readonly inFlight = new Set<ClientRequest>();

  constructor(private readonly options: HttpWebhookTransportOptions) {
    this.allowHosts = new Set(options.allowHosts.map(normalizeHost));
    this.resolver = options.resolver ?? new DnsHostResolver();
  }

  async post(request: WebhookRequest): Promise<WebhookResponse> {
    const deadline = Date.now() + this.options.timeoutMs;
    const url = new URL(request.url);
    // One deadline for the whole attempt: resolving the name counts against it too.
    const address = await this.withinDeadline(this.checkedAddress(url), deadline, request.signal);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new Error(`no answer within ${this.options.timeoutMs} ms`);
    return this.send(url, address, request, remaining);
  }

  close(): void {
    for (const request of this.inFlight) request.destroy(new Error(STOPPED));
  }

  /** `work`'s result, or a rejection when the deadline passes or `signal` aborts first. */
  private withinDeadline<T>(work: Promise<T>, deadline: number, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => done(() => reject(new Error(`no answer within ${this.options.timeoutMs} ms`))),
        Math.max(0, deadline - Date.now()),
      );
      const aborted = () => done(() => reject(new Error(STOPPED)));
      const done = (settle: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        settle();
      };
      if (signal?.aborted) return aborted();
      signal?.addEventListener('abort', aborted, { once: true });
      work.then(
        (value) => done(() => resolve(value)),
        (error: unknown) => done(() => reject(error)),
      );
    });
  }

  /** The address to connect to: checked to be public unless the host is allowed. */
  private async checkedAddress(url: URL): Promise<string> {
    const host = hostOf(url);
    const allowed = this.allowHosts.has(host);
    const shape = destinationShapeProblem(url);
    if (shape) throw new DeliveryFailure(`refused: the URL ${shape}`);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed)) {
      throw new DeliveryFailure('refused: only https:// URLs (plain http only for WEBHOOK_ALLOW_HOSTS)');
    }
    if (!allowed && isLocalName(host)) throw new DeliveryFailure(`refused: ${host} is this machine`);
    const addresses = isIP(host) ? [host] : await this.resolver.addresses(host);
    if (addresses.length === 0) throw new DeliveryFailure(`${host} does not resolve`);
    if (!allowed) {
      const inner = addresses.find((candidate) => !isPublicAddress(candidate));
      if (inner) {
        throw new DeliveryFailure(
          `refused: ${host} resolves to ${inner}, not a public address (see WEBHOOK_ALLOW_HOSTS)`,
        );
      }
    }
    return addresses[0];
  }

  private send(
    url: URL,
    address: string,
    request: WebhookRequest,
    timeoutMs: number,
  ): Promise<WebhookResponse> {
    const host = hostOf(url);
    const body = Buffer.from(request.body, 'utf8');
    const secure = url.protocol === 'https:';
    const options: https.RequestOptions = {
      method: 'POST',
      hostname: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: {
        ...request.headers,
        host: url.host,
        'user-agent': USER_AGENT,
        'content-length': String(body.length),
      },
      agent: false,
      ...(secure && !isIP(host) ? { servername: host } : {}),
    };
    return new Promise<WebhookResponse>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', abort);
        this.inFlight.delete(outgoing);
        outcome();
      };
      const abort = () => outgoing.destroy(new Error(STOPPED));
      const outgoing = (secure ? https : http).request(options, (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () => Buffer.concat(chunks).toString('utf8');
        response.on('data', (chunk: Buffer) => {
          const room = this.options.maxResponseBytes - size;
          if (room > 0) chunks.push(chunk.subarray(0, room));
          size += chunk.length;
          // Enough of it: the rest is not read.
          if (size >= this.options.maxResponseBytes) {
            finish(() => resolve({ status, body: answer() }));
            response.destroy();
          }
        });
        response.on('end', () => finish(() => resolve({ status, body: answer() })));
        response.on('error', (error) => finish(() => reject(error)));
        response.on('close', () => finish(() => resolve({ status, body: answer() })));
      });
      const timer = setTimeout(
        () => outgoing.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)),
        timeoutMs,
      );
      this.inFlight.add(outgoing);
      outgoing.on('error', (error) => finish(() => reject(error)));
      if (request.signal?.aborted) abort();
      else request.signal?.addEventListener('abort', abort, { once: true });
      outgoing.end(body);
    });
  }
}
