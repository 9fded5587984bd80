import { STATUS_CODES, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { utf8 } from '../fast-paths';
import type { ErrorBody } from '../edge/error-table';
import { entityTag, noneMatchHolds } from './entity-tags';
import type { CachedPage } from '../caching/page-cache';
import type { PageMeta } from '../kernel/pagination';
import { FILTERED, isSensitiveKey } from '../kernel/sensitive';
import { mayHoldCardNumber, maskCardNumber, maskCardNumbers } from '../kernel/card-numbers';
import { MAX_NESTING } from '../edge/request-shape';

/** Whether `record` holds no object, no filtered name and no card number, so filtering would copy it unchanged. */
function plainAndUnfiltered(record: Record<string, unknown>): boolean {
  for (const key in record) {
    const value = record[key];
    if ((value !== null && typeof value === 'object') || isSensitiveKey(key) || mayHoldCardNumber(key))
      return false;
    if (
      typeof value === 'string'
        ? mayHoldCardNumber(value)
        : typeof value === 'number' && maskCardNumber(value) !== value
    ) {
      return false;
    }
  }
  return true;
}

/** Stands in the echo for what lies deeper than a request may nest (such a request is refused). */
const TOO_DEEP = '[NESTED TOO DEEPLY]';

/**
 * A copy with every sensitive parameter's value replaced by "[FILTERED]", at any depth, and every
 * card number found by its value (under any name, in a name, inside longer text) masked to its
 * last four digits. The shape stays: only values (and a name that holds a card number) change.
 */
export function filterSensitive(value: unknown, depth = 1): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (typeof value === 'number') return maskCardNumber(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_NESTING) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((inner) => filterSensitive(inner, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[maskCardNumbers(key)] = isSensitiveKey(key) ? FILTERED : filterSensitive(inner, depth + 1);
  }
  return out;
}

/** Per-request state the handlers add to the envelope. */
export interface EnvelopeState {
  /** Defaults the service applied, echoed with the values used. */
  defaults: Record<string, unknown>;
  /** Keys after `parameters` (rate change updates: filters, sorting, search_term). */
  extraMeta: Record<string, unknown> | null;
  /** A kept page's revision and key: the answer carries an ETag made from it (see keptPagesHook). */
  version?: string;
  /** The slot of a kept page the handler builds: sendOkSerialized fills it (see keptPagesHook). */
  keeping?: {
    keep(page: CachedPage<PageMeta | undefined>): void;
    fail(error: unknown): void;
  };
  /** What a kept route read the request into, for its handler (see askedQuery). */
  asked?: unknown;
}

/** Echo of path, query and body parameters as received, with applied defaults and the wrapper key. */
export function echoParameters(request: FastifyRequest): Record<string, unknown> {
  const echo: Record<string, unknown> = {};
  const query = request.query;
  if (query && typeof query === 'object') Object.assign(echo, query);
  for (const [key, value] of Object.entries(request.envelope.defaults)) {
    if (!(key in echo)) echo[key] = value;
  }
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(echo, body);
  const params = request.params;
  if (params && typeof params === 'object') Object.assign(echo, params);
  const wrapper = request.routeConfig?.wrapper;
  const plain = plainAndUnfiltered(echo);
  if (wrapper) echo[wrapper] = {};
  return plain ? echo : (filterSensitive(echo) as Record<string, unknown>);
}

export function statusCat(status: number): string {
  return `https://http.cat/${status}`;
}

/** The envelope's first keys, in the contract's order. */
function metaHead(
  status: number,
  method: string | null,
  requestId: string | null,
  parameters: Record<string, unknown>,
  pagination?: PageMeta,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  if (pagination) meta.pagination = pagination;
  meta.status_code = status;
  meta.status_message = STATUS_CODES[status] ?? 'Unknown';
  meta.status_cat = statusCat(status);
  meta.request_method = method;
  meta.request_id = requestId;
  meta.parameters = parameters;
  return meta;
}

function baseMeta(request: FastifyRequest, status: number, pagination?: PageMeta): Record<string, unknown> {
  // HEAD is GET without the body (RFC 9110 9.3.2): the unsent body, so its ETag, is the GET's.
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return metaHead(status, method, request.id ?? null, echoParameters(request), pagination);
}

/** The 200 body: the data keys first, then `meta`. */
export function okBody(
  request: FastifyRequest,
  data: Record<string, unknown>,
  pagination?: PageMeta,
): Record<string, unknown> {
  return { ...data, meta: okMeta(request, pagination) };
}

/** The `meta` of a 200: the usual keys, then any the handler added (filters, sorting, search_term). */
function okMeta(request: FastifyRequest, pagination?: PageMeta): Record<string, unknown> {
  const meta = baseMeta(request, 200, pagination);
  if (request.envelope.extraMeta) Object.assign(meta, request.envelope.extraMeta);
  return meta;
}

/** Sends a 200 with the data keys first, then `meta`. */
export function sendOk(
  request: FastifyRequest,
  reply: FastifyReply,
  data: Record<string, unknown>,
  pagination?: PageMeta,
): FastifyReply {
  return reply.code(200).send(okBody(request, data, pagination));
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const OPEN_BRACE = Buffer.from('{');

/**
 * A kept answer's envelope around its request id, and its ETag: the same for every request of the
 * same URL while the page and its version last, so made once for them (the meta's objects, its
 * JSON and the tag's hash were a fifth of the work of a kept answer).
 */
export interface KeptEnvelope {
  readonly version: string;
  readonly tag: string;
  /** `,"meta":{` up to the request id's value. */
  readonly before: Buffer;
  /** From `,"parameters":` to the envelope's closing brace. */
  readonly after: Buffer;
}

/** Envelopes by page (its bytes, kept while the page is), then by URL. */
const keptEnvelopes = new WeakMap<object, Map<string, KeptEnvelope>>();
/** URLs remembered for one page; more (OAuth 1.0 in the query makes each URL new) start over. */
const URLS_PER_PAGE = 16;
const REQUEST_ID_KEY = '"request_id":';
const PARAMETERS_KEY = ',"parameters":';

/**
 * The envelope of a kept answer. It is a function of the URL and the page: the echo is the query
 * and path parameters (a GET has no body) and the defaults the handler read from them, and the
 * pagination is the page's own.
 */
function keptEnvelope(
  request: FastifyRequest,
  page: object,
  version: string,
  pagination: PageMeta | undefined,
): KeptEnvelope {
  let byUrl = keptEnvelopes.get(page);
  const known = byUrl?.get(request.url);
  if (known !== undefined && known.version === version) return known;
  const meta = JSON.stringify(okMeta(request, pagination));
  const start = meta.indexOf(REQUEST_ID_KEY);
  const end = meta.indexOf(PARAMETERS_KEY, start);
  const made: KeptEnvelope = {
    version,
    tag: entityTag(version, meta.slice(0, start) + meta.slice(end + 1)),
    before: Buffer.from(`,"meta":${meta.slice(0, start + REQUEST_ID_KEY.length)}`),
    after: Buffer.from(`${meta.slice(end)}}`),
  };
  if (byUrl === undefined) keptEnvelopes.set(page, (byUrl = new Map()));
  else if (byUrl.size >= URLS_PER_PAGE) byUrl.clear();
  byUrl.set(request.url, made);
  return made;
}

/**
 * Sends a 200 whose data part is already serialized: `fragment` is the members of the data object
 * (`"key":value,...`), whole or in parts. The bytes are those `sendOk` writes for the same data.
 * A kept page's answer (keptPagesHook set its version) carries an ETag and answers 304 to a
 * match; the page a kept route's handler built is kept (its slot filled) before it is sent.
 */
export function sendOkSerialized(
  request: FastifyRequest,
  reply: FastifyReply,
  fragment: Uint8Array | readonly Uint8Array[],
  pagination?: PageMeta,
): FastifyReply {
  const keeping = request.envelope.keeping;
  if (keeping !== undefined) {
    // Filled once: the kept route's handler then finds no slot left to fail (see keepingHandler).
    request.envelope.keeping = undefined;
    keeping.keep({ bytes: fragment, meta: pagination });
  }
  const parts = fragment instanceof Uint8Array ? [fragment] : fragment;
  const version = request.envelope.version;
  if (version === undefined || request.body !== undefined) {
    const tail = utf8(`,"meta":${JSON.stringify(okMeta(request, pagination))}}`);
    return sendParts(request, reply, [OPEN_BRACE, ...parts, tail]);
  }
  const kept = keptEnvelope(request, fragment, version, pagination);
  reply.header('etag', kept.tag);
  // Unchanged since the caller's copy: no body (RFC 9110 15.4.5).
  if (noneMatchHolds(request.headers['if-none-match'], kept.tag)) return reply.code(304).send();
  return sendParts(request, reply, keptAnswerParts(fragment, kept, request.id ?? null));
}

/**
 * The envelope of a kept page's answer to `url` when it is already made for the page's bytes
 * (`page`) and `version`, else undefined: the kept lane (KeptLane) answers only what the path
 * through Fastify answered before it.
 */
export function knownKeptEnvelope(page: object, url: string, version: string): KeptEnvelope | undefined {
  const known = keptEnvelopes.get(page)?.get(url);
  return known !== undefined && known.version === version ? known : undefined;
}

/** A kept answer's parts, its page's around its envelope and request id, as sendOkSerialized sends them. */
export function keptAnswerParts(
  fragment: Uint8Array | readonly Uint8Array[],
  kept: KeptEnvelope,
  requestId: string | null,
): Uint8Array[] {
  const parts = fragment instanceof Uint8Array ? [fragment] : fragment;
  return [OPEN_BRACE, ...parts, kept.before, Buffer.from(JSON.stringify(requestId)), kept.after];
}

/**
 * Answers up to this size are joined into one buffer before they are written: each part written
 * to Node's HTTP stream costs more than copying a few kilobytes (a kept `GET flippers`, 325 bytes
 * in five parts, spent about 3 µs more in Node's streams than in one buffer; see Performance).
 */
const JOIN_BELOW_BYTES = 8 * 1024;

/**
 * Writes a 200 JSON answer from its parts, the page's among them, with one system call. A large
 * answer is not copied into one buffer first (Fastify sends one buffer: a kept 17 KB item page cost
 * a copy and an allocation of its size on every request); a small one is (JOIN_BELOW_BYTES). The
 * answer leaves Fastify's send (so its onSend hooks, none on these routes); its headers, the finish
 * and the onResponse hooks stay as they are. A HEAD gets the headers alone, Content-Length the GET's.
 */
function sendParts(request: FastifyRequest, reply: FastifyReply, parts: readonly Uint8Array[]): FastifyReply {
  let length = 0;
  for (const part of parts) length += part.length;
  const headers = reply.getHeaders();
  headers['content-type'] = JSON_CONTENT_TYPE;
  headers['content-length'] = length;
  if (request.server.closing) headers.connection = 'close';
  reply.hijack();
  writeParts(reply.raw, headers as OutgoingHttpHeaders, parts, length, request.method === 'HEAD');
  return reply;
}

/**
 * Writes a 200 from its headers (Content-Type and Content-Length among them) and its parts, `length`
 * bytes in all, with one system call; a HEAD (`headOnly`) gets the headers alone.
 */
export function writeParts(
  res: ServerResponse,
  headers: OutgoingHttpHeaders,
  parts: readonly Uint8Array[],
  length: number,
  headOnly: boolean,
): void {
  res.writeHead(200, headers);
  if (headOnly) {
    res.end();
    return;
  }
  if (length < JOIN_BELOW_BYTES) {
    res.end(Buffer.concat(parts, length));
    return;
  }
  res.cork();
  for (let index = 0; index < parts.length - 1; index++) res.write(parts[index]);
  res.end(parts[parts.length - 1]);
  res.uncork();
}

/** The members of `data` serialized as `sendOkSerialized` takes them. */
export function serializeFragment(data: Record<string, unknown>): Buffer {
  const text = JSON.stringify(data);
  return utf8(text.slice(1, -1));
}

/** The error envelope: `meta` only, with message, error_code and errors after the usual keys. */
export function errorEnvelope(request: FastifyRequest, error: ErrorBody): { meta: Record<string, unknown> } {
  let meta: Record<string, unknown>;
  try {
    meta = baseMeta(request, error.status);
  } catch {
    // The request itself may be too broken to echo (it failed before parsing).
    meta = metaHead(error.status, request.method, request.id ?? null, {});
  }
  return { meta: withError(meta, error) };
}

/**
 * The error envelope for a request that never became one (a malformed request line, oversized
 * headers): what could be read of it, and nothing echoed.
 */
export function rawErrorEnvelope(
  method: string | null,
  requestId: string,
  error: ErrorBody,
): { meta: Record<string, unknown> } {
  return { meta: withError(metaHead(error.status, method, requestId, {}), error) };
}

function withError(meta: Record<string, unknown>, error: ErrorBody): Record<string, unknown> {
  meta.message = error.message;
  meta.error_code = error.errorCode;
  meta.errors = error.problems;
  return meta;
}

export type { ErrorBody };
