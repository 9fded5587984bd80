import DataLoader from 'dataloader';
import { DomainError, problem } from '../kernel/errors';
import { kindOfAnswer } from '../edge/error-table';
import type { ContractUpstream, UpstreamAnswer, UpstreamCall } from './upstream.ports';

/** What one upstream answer holds: the envelope's data keys and its meta. */
export type Envelope = Record<string, unknown> & {
  meta: { pagination?: Record<string, number | null>; message?: string; error_code?: number | null };
};

/** One GET of the contract as a key: the path and its sorted query pairs. */
export type ReadKey = string;

/** What one read gave: the upstream's answer, and its envelope once a resolver needed it. */
interface Read {
  answer: UpstreamAnswer;
  envelope?: Envelope;
}

/**
 * The upstream reads of one GraphQL request: each distinct GET (path and query) is called at most
 * once, however many fields need it (a DataLoader keyed by the request), and independent reads go
 * out together, bounded by the upstream's connection pool. An error answer becomes the DomainError
 * of its status, with the upstream's message.
 *
 * The reads also tell whether an earlier answer still holds: `validators` names each GET read with
 * the ETag of its answer, and `unchanged` asks the upstream again (a conditional GET, answered 304
 * while the page is the same), so a kept GraphQL response can be sent again without executing.
 */
export class UpstreamReads {
  private readonly gets: DataLoader<ReadKey, Read>;
  /** Every GET answered 200, by key: its ETag, or null when the upstream sent none. */
  private readonly seen = new Map<ReadKey, string | null>();

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
  async get(path: string, query: Record<string, string | number | undefined> = {}): Promise<Envelope> {
    const pairs = Object.entries(query)
      .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
      .map(([k, v]) => [k, String(v)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const read = await this.gets.load(JSON.stringify([path, pairs]));
    read.envelope ??= envelopeOf(read.answer);
    return read.envelope;
  }

  /** A POST of the contract with a JSON body: never shared, never kept. */
  async post(path: string, body: unknown, idempotencyKey?: string): Promise<Envelope> {
    const answer = await this.send({
      method: 'POST',
      path,
      query: [],
      body: { type: 'json', text: JSON.stringify(body) },
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    return envelopeOf(answer);
  }

  /** Each GET this request read, with its answer's ETag; null when one came without a validator. */
  validators(): Array<[ReadKey, string]> | null {
    const pairs: Array<[ReadKey, string]> = [];
    for (const [key, etag] of this.seen) {
      if (etag === null) return null;
      pairs.push([key, etag]);
    }
    return pairs;
  }

  /**
   * Whether every read's kept answer is still the one with its ETag and may be used without asking
   * the upstream (within its bound; see `ContractUpstream.keptFresh`): then a response made of them
   * is sent again without executing or calling anything.
   */
  fresh(validators: ReadonlyArray<readonly [ReadKey, string]>): boolean {
    return validators.every(([key, etag]) => {
      const [path, query] = JSON.parse(key) as [string, Array<[string, string]>];
      return this.upstream.keptFresh({ ...this.caller, path, query }, etag, this.requestId);
    });
  }

  /**
   * Whether every read still answers with the same ETag, asked concurrently. The answers stay
   * this request's reads, so an execution that follows a change reads nothing twice. An upstream
   * that fails is not unchanged: the execution then answers its error.
   */
  async unchanged(validators: ReadonlyArray<readonly [ReadKey, string]>): Promise<boolean> {
    const reads = await this.gets.loadMany(validators.map(([key]) => key));
    return reads.every(
      (read, i) => !(read instanceof Error) && read.answer.headers.etag === validators[i][1],
    );
  }

  /** The DataLoader's read of one key: an error answer fails the read. */
  private async fetch(key: ReadKey): Promise<Read> {
    const [path, query] = JSON.parse(key) as [string, Array<[string, string]>];
    const answer = await this.send({ method: 'GET', path, query });
    this.seen.set(key, answer.headers.etag ?? null);
    return { answer };
  }

  private async send(
    call: Omit<UpstreamCall, 'companyId' | 'clientId' | 'requestId'>,
  ): Promise<UpstreamAnswer> {
    const answer = await this.upstream.call({
      ...call,
      companyId: this.caller.companyId,
      clientId: this.caller.clientId,
      requestId: this.requestId,
    });
    if (answer.status !== 200) throw answerError(answer);
    return answer;
  }
}

/** An error answer of the upstream as the domain failure it reports. */
function answerError(answer: UpstreamAnswer): DomainError {
  const meta = envelopeOf(answer).meta ?? {};
  const errors = (meta as { errors?: Array<{ parameter: string; message: string }> }).errors ?? [];
  return new DomainError(
    kindOfAnswer(answer.status, meta.error_code),
    meta.message ?? `the upstream answered ${answer.status}`,
    {
      problems: errors.map((e) => problem([e.parameter], e.message)),
    },
  );
}

/** A 200 answer's envelope; an error answer (polled, say) throws the failure it reports. */
export function envelopeOfAnswer(answer: UpstreamAnswer): Envelope {
  if (answer.status !== 200) throw answerError(answer);
  return envelopeOf(answer);
}

const envelopeOf = (answer: UpstreamAnswer): Envelope => JSON.parse(answer.body.toString('utf8')) as Envelope;
