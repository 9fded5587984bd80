import { PassThrough, type Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

/** Bodies up to this size may be answered from their text (an operation's text is rarely larger). */
export const KEPT_BODY_MAX_BYTES = 16 * 1024;

/** The characters of body texts remembered at most; beyond this the memory starts over. */
const KEPT_BODIES_MAX_CHARS = 1024 * 1024;

/** Companies remembered for one text; more start that text's list over. */
const COMPANIES_PER_BODY = 64;

/** What one POST body's text was found to be, for each company that sent it. */
interface KeptBody {
  /** The key its kept response is under, by the caller's company. */
  readonly keys: Map<string, string>;
  /** Its operation's name in metrics. */
  readonly operation: string;
}

/**
 * The texts of POST bodies whose kept answer was sent, with the key each company's answer is kept
 * under: the next request with the same text is answered from it before Fastify parses the body
 * (GraphQL's `keptLane` in server.ts). A text is remembered only after the whole path decided it:
 * parsed as JSON, passed the request's shape check, concerned no trusted document, and its key read
 * a current kept answer. Each of those depends only on the text, its Content-Type and Accept
 * headers (part of what is remembered) and the service's settings, so the same text decides the
 * same again; what may change (the caller, its rate limit, whether the answer is still current) is
 * asked again on every request.
 */
export class KeptBodies {
  private readonly byText = new Map<string, KeptBody>();
  private chars = 0;

  get size(): number {
    return this.byText.size;
  }

  /**
   * After the whole path answered a kept response for this text; the caller checked
   * mayAnswerFromText, which bounds its size.
   */
  remember(request: FastifyRequest, text: string, companyId: string, key: string, operation: string): void {
    const id = textId(request, text);
    let known = this.byText.get(id);
    if (known === undefined) {
      if (this.chars + id.length > KEPT_BODIES_MAX_CHARS) {
        this.byText.clear();
        this.chars = 0;
      }
      known = { keys: new Map(), operation };
      this.byText.set(id, known);
      this.chars += id.length;
    } else if (known.keys.size >= COMPANIES_PER_BODY) known.keys.clear();
    known.keys.set(companyId, key);
  }

  /** What the text was found to be, sent with these headers; undefined when it was not. */
  find(request: FastifyRequest, text: string): KeptBody | undefined {
    return this.byText.get(textId(request, text));
  }
}

/** The body's text with the headers that decide how it is read and answered. */
function textId(request: FastifyRequest, text: string): string {
  return `${request.headers['content-type']}\n${request.headers.accept ?? ''}\n${text}`;
}

/**
 * Whether a POST may be answered from its text: sent to the path itself (no query string to check),
 * as JSON with its length declared and within KEPT_BODY_MAX_BYTES, not encoded.
 */
export function mayAnswerFromText(request: FastifyRequest, path: string): boolean {
  const { headers } = request;
  if (request.url !== path || headers['content-encoding'] !== undefined) return false;
  if (typeof headers['content-type'] !== 'string' || headers['transfer-encoding'] !== undefined) return false;
  const length = Number(headers['content-length']);
  return length >= 0 && length <= KEPT_BODY_MAX_BYTES;
}

/**
 * Reads a request's body whole, as Fastify's parser would, then calls `read` with its bytes (or
 * the stream's error, with a 400 status as Fastify gives it).
 */
export function readBody(payload: Readable, read: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let length = 0;
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(bytes);
    length += bytes.length;
  };
  const onEnd = (error?: Error & { statusCode?: number }) => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
    if (error != null) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      read(error, Buffer.alloc(0));
      return;
    }
    read(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length));
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

/** A stream of bytes already read, for Fastify's parser to read again. */
export function streamOf(body: Buffer): Readable {
  const stream = new PassThrough();
  stream.end(body);
  return stream;
}
