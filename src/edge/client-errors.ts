import {
  maxHeaderSize,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { ParameterProblem } from '../kernel/errors';
import { maskUrlPath } from '../kernel/sensitive';
import type { ErrorBody } from './error-table';
import type { KnownRoutes } from './known-routes';
import { requestIdFrom } from './request-id';

/** What the edge knows when Node's HTTP parser gives up on a request, or answers one itself. */
export interface EdgeContext {
  routes: KnownRoutes;
  log: FastifyBaseLogger;
  /** The path answered in GraphQL's error shape; every other path answers in the envelope. */
  graphqlPath: string;
  /** The transports' error bodies, given by the app (the edge knows no transport). */
  answers: {
    /** GraphQL's error response with `extensions.code` BAD_REQUEST. */
    graphql(message: string): object;
    /** The REST envelope of an error, for a request Fastify never saw. */
    rest(method: string | null, requestId: string, error: ErrorBody): object;
  };
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;
// A request line longer than this is a URL too long (414) rather than headers too large (431).
const LONGEST_REQUEST_LINE = 8 * 1024;

interface RequestStart {
  method: string | null;
  path: string | null;
  requestId: string;
  requestLineLength: number;
}

/** What can be read of a request Node refused: its method, path and X-Request-Id, when well-formed. */
function readRequestStart(raw: Buffer | undefined): RequestStart {
  const text = raw ? raw.toString('latin1') : '';
  const end = text.search(/\r?\n/);
  const line = end < 0 ? text : text.slice(0, end);
  const [method, target] = line.split(' ');
  const given = /\r?\nx-request-id:[ \t]*([^\r\n]*?)[ \t]*\r?\n/i.exec(text)?.[1];
  return {
    method: method !== undefined && TOKEN.test(method) ? method : null,
    path: target !== undefined && target.startsWith('/') ? target.split('?')[0] : null,
    requestId: requestIdFrom(given),
    requestLineLength: end < 0 ? text.length : end,
  };
}

function problem(parameter: string, message: string): ParameterProblem[] {
  return [{ parameter, message }];
}

/** A known path with a method it does not take is 405; an unknown path 404. */
function wrongMethod(
  context: EdgeContext,
  method: string,
  path: string | null,
): { error: ErrorBody; allow: string | null } {
  const allowed = path === null ? [] : (context.routes.lookup(path)?.allowed ?? []);
  if (allowed.length === 0) {
    return {
      error: {
        status: 404,
        errorCode: 9,
        message: `no route ${method} ${maskUrlPath(path ?? '').slice(0, 200)}`,
        problems: problem('path', 'names no route'),
      },
      allow: null,
    };
  }
  return {
    error: {
      status: 405,
      errorCode: null,
      message: `${method} is not allowed here; use ${allowed.join(' or ')}`,
      problems: [],
    },
    allow: allowed.join(', '),
  };
}

function classify(
  code: string | undefined,
  start: RequestStart,
  context: EdgeContext,
): { error: ErrorBody; allow: string | null } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        error: { status: 408, errorCode: null, message: 'the request did not arrive in time', problems: [] },
        allow: null,
      };
    case 'HPE_HEADER_OVERFLOW':
      if (start.requestLineLength > LONGEST_REQUEST_LINE) {
        return {
          error: {
            status: 414,
            errorCode: null,
            message: `the URL is longer than ${LONGEST_REQUEST_LINE} bytes; send long values in a POST body`,
            problems: problem('URL', 'is too long'),
          },
          allow: null,
        };
      }
      return {
        error: {
          status: 431,
          errorCode: null,
          message: `the request line and headers are larger than ${maxHeaderSize} bytes`,
          problems: problem('headers', 'are too large'),
        },
        allow: null,
      };
    case 'HPE_INVALID_METHOD':
      if (start.method !== null) return wrongMethod(context, start.method, start.path);
      break;
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_HEADER_VALUE':
    case 'HPE_INVALID_HEADER_FIELD_CHAR':
      return {
        error: {
          status: 400,
          errorCode: 4,
          message: 'a header holds a character HTTP does not allow',
          problems: problem('headers', 'hold a character HTTP does not allow'),
        },
        allow: null,
      };
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_PATH':
      return {
        error: {
          status: 400,
          errorCode: 4,
          message: 'the URL holds a character HTTP does not allow; percent-encode it',
          problems: problem('URL', 'holds a character HTTP does not allow'),
        },
        allow: null,
      };
  }
  return {
    error: {
      status: 400,
      errorCode: 4,
      message: 'malformed HTTP request',
      problems: problem('request', 'is not well-formed HTTP/1.1'),
    },
    allow: null,
  };
}

/** The body: the envelope, or GraphQL's error shape on the GraphQL path. */
function answerBody(context: EdgeContext, start: RequestStart, error: ErrorBody): string {
  return JSON.stringify(
    start.path === context.graphqlPath
      ? context.answers.graphql(error.message)
      : context.answers.rest(start.method, start.requestId, error),
  );
}

/** The whole answer as bytes, for a socket no response object was made for. */
function answerBytes(
  context: EdgeContext,
  start: RequestStart,
  error: ErrorBody,
  allow: string | null,
): string {
  const body = answerBody(context, start, error);
  const headers = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${start.requestId}`,
    ...(allow ? [`Allow: ${allow}`] : []),
    'Connection: close',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

function answerAndClose(socket: Duplex, bytes: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(bytes, () => socket.destroy());
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refused (bytes HTTP does not allow, an
 * unknown method, headers over the limit, a timeout) is answered in the envelope like any other.
 * Only the error's code is logged: the raw bytes may hold anything, card data included.
 */
export function clientErrorHandler(context: EdgeContext) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const raw = (error as { rawPacket?: unknown }).rawPacket;
    const start = readRequestStart(Buffer.isBuffer(raw) ? raw : undefined);
    const { error: answer, allow } = classify(error.code, start, context);
    context.log.debug(
      { code: error.code, status: answer.status, reqId: start.requestId },
      'malformed request refused',
    );
    answerAndClose(socket, answerBytes(context, start, answer, allow));
  };
}

/**
 * Answers what Node's server would otherwise answer itself, outside Fastify: CONNECT (which it
 * would drop without a word) and an Expect header other than 100-continue (a bare 417).
 */
export function guardServer(server: Server, context: EdgeContext): void {
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const start: RequestStart = {
      method: request.method ?? 'CONNECT',
      path: request.url?.startsWith('/') ? request.url.split('?')[0] : null,
      requestId: readRequestId(request),
      requestLineLength: 0,
    };
    const { error, allow } = wrongMethod(context, start.method!, start.path);
    answerAndClose(socket, answerBytes(context, start, error, allow));
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const start: RequestStart = {
      method: request.method ?? null,
      path: request.url?.startsWith('/') ? request.url.split('?')[0] : null,
      requestId: readRequestId(request),
      requestLineLength: 0,
    };
    const error: ErrorBody = {
      status: 417,
      errorCode: null,
      message: 'Expect: only 100-continue is supported',
      problems: problem('Expect', 'is not 100-continue'),
    };
    const body = answerBody(context, start, error);
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': start.requestId,
      connection: 'close',
    });
    response.end(body);
  });
}

function readRequestId(request: IncomingMessage): string {
  return requestIdFrom(request.headers['x-request-id']);
}
