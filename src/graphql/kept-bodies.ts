import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../kernel/caller';

/** What of a request decides how its body is read and answered: its URL and headers (Fastify's or Node's request). */
interface Asked {
  readonly url?: string;
  readonly headers: IncomingHttpHeaders;
}

/** Bodies up to this size may be answered from their text (an operation's text is rarely larger). */
export const KEPT_BODY_MAX_BYTES = 16 * 1024;

/** The characters of body texts remembered at most; beyond this the memory starts over. */
const KEPT_BODIES_MAX_CHARS = 1024 * 1024;

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
  remember(
    request: Asked,
    text: string,
    caller: Caller,
    byClient: boolean,
    key: string,
    operation: string,
  ): void {
    const id = textId(request, text);
    let known = this.byText.get(id);
    if (known === undefined || known.byClient !== byClient) {
      if (known !== undefined) {
        this.byText.delete(id);
        this.chars -= id.length;
      }
      if (this.chars + id.length > KEPT_BODIES_MAX_CHARS) {
        this.byText.clear();
        this.chars = 0;
      }
      known = { byClient, keys: new Map(), operation };
      this.byText.set(id, known);
      this.chars += id.length;
    } else if (known.keys.size >= HOLDERS_PER_BODY) known.keys.clear();
    known.keys.set(holderOf(byClient, caller), key);
  }

  /** What the text was found to be, sent with these headers; undefined when it was not. */
  find(request: Asked, text: string): KeptBody | undefined {
    return this.byText.get(textId(request, text));
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

/** The body's text with the headers that decide how it is read and answered. */
function textId(request: Asked, text: string): string {
  return `${request.headers['content-type']}\n${request.headers.accept ?? ''}\n${text}`;
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
