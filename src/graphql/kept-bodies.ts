import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../kernel/caller';

/** What of a request decides how its body is read and answered: its URL and headers (Fastify's or Node's request). */
interface Asked {
  readonly url?: string;
  readonly headers: IncomingHttpHeaders;
}

/** Bodies up to this size may be answered from their text (an operation's text is rarely larger). */
export const KEPT_BODY_MAX_BYTES = 16 * 1024;

/** The bytes of body texts remembered at most; beyond this the memory starts over. */
const KEPT_BODIES_MAX_BYTES = 1024 * 1024;

/** Texts remembered of one length; one more lets the oldest of that length go. */
const TEXTS_PER_LENGTH = 16;

/** Companies (or client applications) remembered for one text; more start that text's list over. */
const HOLDERS_PER_BODY = 64;

/** What one POST body's text was found to be, for each company (or client) that sent it. */
export interface KeptBody {
  /**
   * Whether the text runs a trusted document, so that what it was found to be holds for the
   * client application whose document it is, not for its whole company.
   */
  readonly byClient: boolean;
  /** The key its kept response is under, by the caller's company, or its client when byClient. */
  readonly keys: Map<string, string>;
  /** Its operation's name in metrics. */
  readonly operation: string;
}

/** A remembered text: its bytes (UTF-8) and the headers it was sent with, and what it was found to be. */
interface Remembered {
  readonly contentType: string;
  readonly accept: string;
  readonly bytes: Buffer;
  known: KeptBody;
}

/**
 * The texts of POST bodies whose kept answer was sent, with the key each company's answer is kept
 * under: the next request with the same text is answered from it before Fastify parses the body
 * (GraphQL's `keptLane` in server.ts). A text is remembered only after the whole path decided it:
 * parsed as JSON, passed the request's shape check, passed the trusted-documents gate, and its key
 * read a current kept answer. Each of those depends only on the text, its Content-Type and Accept
 * headers (part of what is remembered) and the service's settings, so the same text decides the
 * same again; a text that ran one of its client's trusted documents (sent by id, or as the text in
 * `require` mode) is remembered for that client alone, and decides the same again for it because a
 * client's documents are only ever added. What may change (the caller, its rate limit, whether the
 * answer is still current) is asked again on every request.
 *
 * A body is found by its bytes, among the texts of its length: comparing them costs a few tens of
 * nanoseconds where decoding the body and hashing the text as a Map's key cost about 0.8 µs (a
 * 600-byte operation; docs/performance.md). Bytes equal decode to the same text; a body whose bytes
 * differ from the text's UTF-8 (an invalid sequence) is not found, and goes the whole path.
 */
export class KeptBodies {
  private readonly byLength = new Map<number, Remembered[]>();
  private texts = 0;
  private bytes = 0;

  get size(): number {
    return this.texts;
  }

  /**
   * After the whole path answered a kept response for this text; the caller checked
   * mayAnswerFromText, which bounds its size.
   */
  remember(
    request: Asked,
    text: string,
    caller: Caller,
    byClient: boolean,
    key: string,
    operation: string,
  ): void {
    const bytes = Buffer.from(text, 'utf8');
    let found = this.remembered(request, bytes);
    if (found === undefined) {
      if (this.bytes + bytes.length > KEPT_BODIES_MAX_BYTES) {
        this.byLength.clear();
        this.texts = 0;
        this.bytes = 0;
      }
      let sameLength = this.byLength.get(bytes.length);
      if (sameLength === undefined) this.byLength.set(bytes.length, (sameLength = []));
      else if (sameLength.length >= TEXTS_PER_LENGTH) {
        sameLength.shift();
        this.texts -= 1;
        this.bytes -= bytes.length;
      }
      found = {
        contentType: String(request.headers['content-type']),
        accept: request.headers.accept ?? '',
        bytes,
        known: { byClient, keys: new Map(), operation },
      };
      sameLength.push(found);
      this.texts += 1;
      this.bytes += bytes.length;
    } else if (found.known.byClient !== byClient) {
      found.known = { byClient, keys: new Map(), operation };
    } else if (found.known.keys.size >= HOLDERS_PER_BODY) found.known.keys.clear();
    found.known.keys.set(holderOf(byClient, caller), key);
  }

  /** What the body's text was found to be, sent with these headers; undefined when it was not. */
  find(request: Asked, body: Uint8Array): KeptBody | undefined {
    return this.remembered(request, body)?.known;
  }

  private remembered(request: Asked, body: Uint8Array): Remembered | undefined {
    const sameLength = this.byLength.get(body.length);
    if (sameLength === undefined) return undefined;
    const contentType = String(request.headers['content-type']);
    const accept = request.headers.accept ?? '';
    for (const text of sameLength) {
      if (text.contentType === contentType && text.accept === accept && text.bytes.equals(body)) return text;
    }
    return undefined;
  }
}

/**
 * Whose a remembered text's decision is: the caller's client application's when it ran one of its
 * trusted documents, else its company's.
 */
function holderOf(byClient: boolean, caller: Caller): string {
  return byClient ? caller.clientId : caller.companyId;
}

/** The key a remembered text's answer is kept under for this caller, if it was found for it. */
export function keyFor(known: KeptBody, caller: Caller): string | undefined {
  return known.keys.get(holderOf(known.byClient, caller));
}

/**
 * Whether a POST may be answered from its text: sent to the path itself (no query string to check),
 * as JSON with its length declared and within KEPT_BODY_MAX_BYTES, not encoded.
 */
export function mayAnswerFromText(request: Asked, path: string): boolean {
  const { headers } = request;
  if (request.url !== path || headers['content-encoding'] !== undefined) return false;
  if (typeof headers['content-type'] !== 'string' || headers['transfer-encoding'] !== undefined) return false;
  const length = Number(headers['content-length']);
  return length >= 0 && length <= KEPT_BODY_MAX_BYTES;
}
