import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** A JSON body's text as received, in the scopes that keep it (keepJsonText); else null. */
    jsonText: string | null;
  }
}

/**
 * Within `scope`, a JSON body is parsed as the app parses JSON (Fastify's parser, refusing
 * `__proto__` and `constructor.prototype` keys) and its text is kept as `request.jsonText`: gateway
 * mode forwards it as it came, and GraphQL remembers the texts it answered from kept responses.
 */
export function keepJsonText(scope: FastifyInstance): void {
  scope.decorateRequest('jsonText', null);
  const parseJson = jsonParser(scope);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.jsonText = body as string;
    parseJson(request, body as string, done);
  });
}

/** Marks a parse error whose body is JSON holding a key the parser refuses (`__proto__`). */
export const FORBIDDEN_JSON_KEY = Symbol('JSON with a forbidden key');

type JsonParser = ReturnType<FastifyInstance['getDefaultJsonParser']>;

/**
 * Fastify's JSON parser, refusing `__proto__` and `constructor.prototype` keys; a body refused for
 * holding one, though valid JSON, has its error marked FORBIDDEN_JSON_KEY, so that the caller is
 * told that rather than that the JSON is malformed. The body is read again only then.
 */
export function jsonParser(scope: FastifyInstance): JsonParser {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  return (request, body, done) =>
    parseJson(request, body, (error, value) => {
      if (error !== null && error !== undefined && isJson(body)) {
        (error as Error & { [FORBIDDEN_JSON_KEY]?: true })[FORBIDDEN_JSON_KEY] = true;
      }
      done(error, value);
    });
}

function isJson(body: string | Buffer): boolean {
  try {
    JSON.parse(body.toString());
    return true;
  } catch {
    return false;
  }
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
