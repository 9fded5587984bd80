import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createHandler as createSseHandler, type RequestParams } from 'graphql-sse';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { Caller } from '../kernel/caller';
import { DomainError } from '../kernel/errors';
import type { Config, LiveConfig } from '../config';
import { domainErrorMessage } from '../graphql/errors';
import { GRAPHQL_PATH, type EventStreamHandler } from '../graphql/server';
import type { ContextServices, GraphqlContext } from '../graphql/context';
import type { TrustedDocumentGate } from '../graphql/trusted-documents';
import type { AuthService } from '../auth/auth.service';
import type { LiveHub } from './live-hub';
import {
  formattedErrors,
  formattedResult,
  liveContext,
  prepareSubscription,
  refusal,
  SubscriptionQuota,
} from './live-operations';

/** What graphql-ws uses: each operation's context, and the credentials connection_init gives. */
interface WebSocketServices extends ContextServices {
  readonly auth: Pick<AuthService, 'authenticate'>;
}

/** What the subscriptions' transports use, and the live hub they prune and close. */
export interface LiveTransportServices extends WebSocketServices {
  readonly live: Pick<LiveHub, 'startPruning' | 'close'>;
}

/** A close reason is at most 123 bytes (RFC 6455); ours are cut well before. */
function closeReason(message: string): string {
  return Buffer.byteLength(message) <= 120
    ? message
    : `${Buffer.from(message).subarray(0, 117).toString()}...`;
}

/** What one WebSocket connection holds: its caller and its subscriptions' ids. */
interface ConnectionState {
  caller: Caller | null;
  readonly connectionId: string;
  readonly subscriptions: Set<string>;
  alive: boolean;
}

/** The credentials of a WebSocket: `Authorization` in connection_init's payload, else the upgrade's header. */
function authorizationOf(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage) {
  const given = params?.Authorization ?? params?.authorization;
  if (given !== undefined) return typeof given === 'string' ? given : null;
  return request.headers.authorization;
}

/**
 * graphql-ws on /graphql (WebSocket upgrade, subprotocol `graphql-transport-ws`), authenticated by
 * connection_init's `Authorization` as POST /graphql is by its header; heartbeats by WebSocket
 * pings; a connection whose unsent bytes pass LIVE_SOCKET_BUFFER_KB is dropped (slow consumer).
 */
export function registerWebSocketTransport(
  app: FastifyInstance,
  services: WebSocketServices,
  schema: GraphQLSchema,
  config: Pick<Config, 'live' | 'bodyLimit' | 'graphqlMaxCost'>,
  quota: SubscriptionQuota,
  trusted: TrustedDocumentGate,
): void {
  const live: LiveConfig = config.live;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: config.bodyLimit });
  const states = new WeakMap<WebSocket, ConnectionState>();
  const stateOf = (socket: WebSocket): ConnectionState => {
    let state = states.get(socket);
    if (!state) {
      state = { caller: null, connectionId: randomUUID(), subscriptions: new Set(), alive: true };
      states.set(socket, state);
    }
    return state;
  };
  const release = (state: ConnectionState, id: string) => {
    if (state.subscriptions.delete(id) && state.caller) quota.give(state.caller.clientId);
  };

  const server = useServer<
    Record<string, unknown> | undefined,
    { socket: WebSocket; request: IncomingMessage }
  >(
    {
      schema,
      onConnect: async (ctx) => {
        const { socket, request } = ctx.extra;
        const authorization = authorizationOf(ctx.connectionParams, request);
        try {
          if (authorization === null) {
            throw new DomainError(
              'unauthenticated',
              'connection_init: Authorization must be a string ("Bearer <token>")',
            );
          }
          const caller = await services.auth.authenticate({
            method: 'GET',
            protocol: 'http',
            host: request.headers.host ?? '',
            url: request.url ?? GRAPHQL_PATH,
            authorization: authorization ?? undefined,
            formParams: [],
          });
          stateOf(socket).caller = caller;
          return true;
        } catch (error) {
          const message =
            error instanceof DomainError ? domainErrorMessage(error) : 'credentials could not be checked';
          if (!(error instanceof DomainError))
            app.log.error({ err: error }, 'graphql-ws authentication failed');
          socket.close(CloseCode.Forbidden, closeReason(`Forbidden: ${message}`));
          return false;
        }
      },
      onSubscribe: async (ctx, id, payload) => {
        const state = stateOf(ctx.extra.socket);
        const caller = state.caller!;
        // TRUSTED_DOCUMENTS holds here as on POST: in `require` mode the text must be a trusted document.
        if (trusted.concerns(payload)) {
          const { refusal: refused } = await trusted.admit(caller.clientId, payload);
          if (refused) return [new GraphQLError(refused.message, { extensions: refused.extensions })];
        }
        if (state.subscriptions.size >= live.perConnection) {
          return [
            refusal(
              new DomainError(
                'rate_limited',
                `this connection already holds ${live.perConnection} subscriptions (LIVE_SUBSCRIPTIONS_PER_CONNECTION); complete one first`,
              ),
            ),
          ];
        }
        const context = liveContext(
          services,
          caller,
          `${state.connectionId}/${id}`,
          app.log.child({ connection: state.connectionId }),
        );
        const prepared = prepareSubscription(schema, payload, context, config.graphqlMaxCost);
        if (Array.isArray(prepared)) return prepared;
        const refused = quota.take(caller.clientId);
        if (refused) return [refusal(refused)];
        state.subscriptions.add(id);
        return prepared;
      },
      onNext: (ctx, _id, _payload, _args, result) => {
        const socket = ctx.extra.socket;
        if (socket.bufferedAmount > live.socketBufferBytes) {
          socket.close(
            1008,
            closeReason(
              `slow consumer: more than ${Math.round(live.socketBufferBytes / 1024)} KiB waited unsent`,
            ),
          );
        }
        return formattedResult(result, app.log);
      },
      onError: (_ctx, _id, _payload, errors) => formattedErrors(errors, app.log),
      onComplete: (ctx, id) => release(stateOf(ctx.extra.socket), id),
      onClose: (ctx) => {
        const state = stateOf(ctx.extra.socket);
        for (const id of [...state.subscriptions]) release(state, id);
      },
    },
    sockets,
  );

  // Heartbeats: a connection that did not answer the last ping is gone (its subscriptions end).
  const heartbeat = setInterval(() => {
    for (const socket of sockets.clients) {
      const state = stateOf(socket);
      if (!state.alive) {
        socket.terminate();
        continue;
      }
      state.alive = false;
      socket.ping();
    }
  }, live.heartbeatMs);
  heartbeat.unref();
  sockets.on('connection', (socket) => socket.on('pong', () => (stateOf(socket).alive = true)));

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== GRAPHQL_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  });
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const socket of sockets.clients) socket.close(1001, 'the service is shutting down');
    await server.dispose();
  });
}

/**
 * GraphQL over SSE (graphql-sse's distinct connections mode) on POST /graphql with
 * `Accept: text/event-stream`, authenticated by the app's hook like any POST. Each event carries
 * the `id:` of its `cursor` (when selected), so a client reconnects with `Last-Event-ID` and
 * replays what it missed. Heartbeats are graphql-sse's comment every 12 s; a stream whose unsent
 * bytes pass LIVE_SOCKET_BUFFER_KB ends with a RATE_LIMITED error (slow consumer).
 */
export function eventStreamHandler(
  services: ContextServices,
  schema: GraphQLSchema,
  config: Pick<Config, 'live' | 'graphqlMaxCost'>,
  quota: SubscriptionQuota,
) {
  const live = config.live;
  interface SseContext {
    request: FastifyRequest;
    cursors: (string | null)[];
  }
  const handler = createSseHandler<FastifyRequest, SseContext, GraphqlContext & Record<PropertyKey, unknown>>(
    {
      schema,
      // Distinct connections only: no reserved streams, so no stream token.
      authenticate: () => null as unknown as string,
      onSubscribe: (req, params: RequestParams) => {
        const request = req.raw;
        const lastEventId = request.headers['last-event-id'];
        const context = liveContext(
          services,
          request.caller!,
          request.id,
          request.log,
          typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : null,
        );
        const prepared = prepareSubscription(schema, params, context, config.graphqlMaxCost);
        if (Array.isArray(prepared)) return { errors: prepared };
        return { ...prepared, contextValue: context as GraphqlContext & Record<PropertyKey, unknown> };
      },
      onNext: (_ctx, req, result) => {
        req.context.cursors.push(cursorOf(result.data));
        return formattedResult(result) as typeof result;
      },
    },
  );

  return async function answerEventStream(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const caller = request.caller!;
    const refused = quota.take(caller.clientId);
    if (refused) {
      return reply
        .code(429)
        .type('application/json; charset=utf-8')
        .send({ errors: formattedErrors([refusal(refused)]) });
    }
    let released = false;
    const release = () => {
      if (!released) quota.give(caller.clientId);
      released = true;
    };
    const context: SseContext = { request, cursors: [] };
    const [body, init] = await handler({
      method: 'POST',
      url: request.url,
      headers: {
        get: (key: string) => {
          if (key.toLowerCase() === 'accept') return 'text/event-stream';
          const value = request.headers[key.toLowerCase()];
          return Array.isArray(value) ? value.join(',') : value;
        },
      },
      body: (request.body ?? null) as Record<string, unknown> | null,
      raw: request,
      context,
    }).catch((error: unknown) => {
      release();
      throw error;
    });
    if (typeof body === 'string' || body === null) {
      release();
      return reply
        .code(init.status)
        .headers(init.headers ?? {})
        .send(body ?? '');
    }
    reply.hijack();
    const response = reply.raw;
    response.writeHead(init.status, { ...init.headers, 'x-request-id': request.id });
    const stop = () => void body.return(undefined);
    response.on('close', stop);
    try {
      for await (const chunk of body) {
        if (chunk.startsWith('event: next')) {
          const cursor = context.cursors.shift();
          if (cursor) response.write(`id: ${cursor}\n`);
        }
        response.write(chunk);
        if (response.writableLength > live.socketBufferBytes) {
          const dropped = new DomainError(
            'rate_limited',
            `slow consumer: more than ${Math.round(live.socketBufferBytes / 1024)} KiB waited unsent; reconnect with Last-Event-ID`,
          );
          response.write(
            `event: next\ndata: ${JSON.stringify({ errors: formattedErrors([refusal(dropped)]) })}\n\n`,
          );
          response.write('event: complete\ndata:\n\n');
          break;
        }
      }
    } finally {
      response.off('close', stop);
      stop();
      release();
      response.end();
    }
    return reply;
  };
}

/** The cursor of an event's result: the `cursor` its one root field selected, if any. */
function cursorOf(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  const [root] = Object.values(data as Record<string, unknown>);
  if (!root || typeof root !== 'object') return null;
  const cursor = (root as { cursor?: unknown }).cursor;
  return typeof cursor === 'string' ? cursor : null;
}

/**
 * Mounts both transports over the schema GraphQL serves, sharing one limit of subscriptions per
 * client, and answers the SSE handler for POST /graphql (see `GraphqlOptions.live`).
 */
export function registerLiveTransports(
  app: FastifyInstance,
  services: LiveTransportServices,
  config: Pick<Config, 'live' | 'bodyLimit' | 'graphqlMaxCost'>,
): (schema: GraphQLSchema, trusted: TrustedDocumentGate) => EventStreamHandler {
  const quota = new SubscriptionQuota(config.live.perClient);
  // Gateway mode writes no journal: nothing to prune there.
  if (!services.upstream) services.live.startPruning();
  // Before the server waits for its connections: open streams end (GONE, "subscribe again") so
  // shutdown is not held by them.
  app.addHook('preClose', () => services.live.close());
  return (schema, trusted) => {
    registerWebSocketTransport(app, services, schema, config, quota, trusted);
    return eventStreamHandler(services, schema, config, quota);
  };
}
