import DataLoader from 'dataloader';
import { DomainError, problem, type DomainErrorKind } from '../../domain/errors';
import type { ContractUpstream, UpstreamCall } from '../../domain/gateway/upstream.ports';

/** What one upstream answer holds: the envelope's data keys and its meta. */
export type Envelope = Record<string, unknown> & {
  meta: { pagination?: Record<string, number | null>; message?: string; error_code?: number | null };
};

/** The contract's error answers as the domain's kinds. */
function kindOf(status: number, errorCode: number | null | undefined): DomainErrorKind {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 410) return 'gone';
  if (status === 429) return 'rate_limited';
  if (errorCode === 3) return 'action_failed';
  if (errorCode === 5) return 'conflicting_parameters';
  if (errorCode === 7) return 'disabled_for_tenants';
  return 'invalid_parameter';
}

/**
 * The upstream reads of one GraphQL request: each distinct GET (path and query) is called at most
 * once, however many fields need it (a DataLoader keyed by the request), and independent reads go
 * out together, bounded by the upstream's connection pool. An error answer becomes the DomainError
 * of its status, with the upstream's message.
 */
export class UpstreamReads {
  private readonly gets: DataLoader<string, Envelope>;

  constructor(
    private readonly upstream: ContractUpstream,
    private readonly caller: { companyId: string; clientId: string },
    private readonly requestId: string,
  ) {
    this.gets = new DataLoader((keys) =>
      Promise.all(keys.map((key) => this.fetch(key).catch((e: Error) => e))),
    );
  }

  /** A GET of the contract; `query` values left undefined are not sent. */
  get(path: string, query: Record<string, string | number | undefined> = {}): Promise<Envelope> {
    const pairs = Object.entries(query)
      .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
      .map(([k, v]) => [k, String(v)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return this.gets.load(JSON.stringify([path, pairs]));
  }

  /** A POST of the contract with a JSON body: never shared, never kept. */
  post(path: string, body: unknown, idempotencyKey?: string): Promise<Envelope> {
    return this.send({
      method: 'POST',
      path,
      query: [],
      body: { type: 'json', text: JSON.stringify(body) },
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
  }

  /** The DataLoader's read of one key. */
  private fetch(key: string): Promise<Envelope> {
    const [path, query] = JSON.parse(key) as [string, Array<[string, string]>];
    return this.send({ method: 'GET', path, query });
  }

  private async send(call: Omit<UpstreamCall, 'companyId' | 'clientId' | 'requestId'>): Promise<Envelope> {
    const answer = await this.upstream.call({
      ...call,
      companyId: this.caller.companyId,
      clientId: this.caller.clientId,
      requestId: this.requestId,
    });
    const body = JSON.parse(answer.body.toString('utf8')) as Envelope;
    if (answer.status === 200) return body;
    const meta = body.meta ?? {};
    const errors = (meta as { errors?: Array<{ parameter: string; message: string }> }).errors ?? [];
    throw new DomainError(
      kindOf(answer.status, meta.error_code),
      meta.message ?? `the upstream answered ${answer.status}`,
      {
        problems: errors.map((e) => problem([e.parameter], e.message)),
      },
    );
  }
}
