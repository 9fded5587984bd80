import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, type ExecutionArgs, type FormattedExecutionResult, type GraphQLSchema } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { Caller } from '../kernel/caller';
import { DomainError } from '../kernel/errors';
import type { Config, LiveConfig } from '../config';
import { domainErrorMessage } from '../graphql/errors';
import { GRAPHQL_PATH, type EventStreamHandler } from '../graphql/server';
import type { ContextServices } from '../graphql/context';
import type { TrustedDocumentGate } from '../graphql/trusted-documents';
import type { AuthService } from '../auth/auth.service';
import type { LiveHub } from './live-hub';
import { WorkSlices } from './work-slices';
import {
  LiveMembership,
  type LiveGroups,
  type LiveOperation,
  type LiveSink,
  type SharedResult,
} from './live-groups';
import {
  connectionQuota,
  DocumentCache,
  formattedErrors,
  formattedResult,
  liveContext,
  prepareSubscription,
  refusal,
  subscriptionQuota,
  type ClientQuota,
  type OperationRequest,
} from './live-operations';

/** What graphql-ws uses: each operation's context, and the credentials connection_init gives. */
interface WebSocketServices extends ContextServices {
  readonly auth: Pick<AuthService, 'authenticate'>;
}

/** What the subscriptions' transports use, and the live hub they prune and close. */
export interface LiveTransportServices extends WebSocketServices {
  readonly live: Pick<LiveHub, 'startPruning' | 'close'>;
  readonly liveGroups: LiveGroups;
}

/** A close reason is at most 123 bytes (RFC 6455); ours are cut well before. */
function closeReason(message: string): string {
  return Buffer.byteLength(message) <= 120
    ? message
    : `${Buffer.from(message).subarray(0, 117).toString()}...`;
}

/** What one WebSocket connection holds: its caller (once counted against its quota) and its subscriptions' ids. */
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

/** What both transports share: the groups subscriptions join, and the limits per client. */
interface LiveShared {
  readonly groups: LiveGroups;
  readonly subscriptions: ClientQuota;
  readonly connections: ClientQuota;
  readonly documents: DocumentCache;
}

/** Close code of a connection over LIVE_CONNECTIONS_PER_CLIENT: RFC 6455's "Try Again Later". */
export const TRY_AGAIN_LATER = 1013;

const NEXT_END = Buffer.from('}');

/** How long the heartbeats ping before requests run (see WorkSlices). */
const PINGING_MS_PER_TURN = 1;

/**
 * A graphql-ws operation's results: its `next` message is the group's JSON inside this operation's
 * envelope (`{"id":...,"type":"next","payload":` ... `}`), the bytes graphql-ws would send.
 */
function webSocketSink(socket: WebSocket, raw: Duplex | undefined, id: string, live: LiveConfig): LiveSink {
  const head = Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`);
  return {
    write(result: SharedResult) {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (socket.bufferedAmount > live.socketBufferBytes) {
        socket.close(
          1008,
          closeReason(
            `slow consumer: more than ${Math.round(live.socketBufferBytes / 1024)} KiB waited unsent`,
          ),
        );
        return;
      }
      socket.send(Buffer.concat([head, result.json, NEXT_END]), { binary: false });
    },
    // graphql-ws sends `complete` when the operation's iterator ends.
    end: () => undefined,
    // ws writes each frame corked; corking its connection around them makes them one write.
    cork: () => raw?.cork(),
    uncork: () => raw?.uncork(),
  };
}

/**
 * graphql-ws on /graphql (WebSocket upgrade, subprotocol `graphql-transport-ws`), authenticated by
 * connection_init's `Authorization` as POST /graphql is by its header; heartbeats by WebSocket
 * pings; a connection whose unsent bytes pass LIVE_SOCKET_BUFFER_KB is dropped (slow consumer), and
 * one past the client's LIVE_CONNECTIONS_PER_CLIENT is closed 1013. graphql-ws runs the protocol;
 * the events' results are written by the live groups, the same bytes for every member.
 */
export function registerWebSocketTransport(
  app: FastifyInstance,
  services: WebSocketServices,
  schema: GraphQLSchema,
  config: Pick<Config, 'live' | 'bodyLimit' | 'graphqlMaxCost'>,
  shared: LiveShared,
  trusted: TrustedDocumentGate,
): void {
  const live: LiveConfig = config.live;
  const quota = shared.subscriptions;
  /**
   * What graphql-ws's operation is about to subscribe with: its context and where its results go.
   * Kept here rather than in the arguments graphql-ws holds for the subscription's life, so an idle
   * subscription does not keep the context it subscribed with (its loaders).
   */
  /** Each WebSocket's connection, to send several frames in one write. */
  const connections = new WeakMap<WebSocket, Duplex>();
  const opening = new WeakMap<ExecutionArgs, { context: LiveOperation['contextValue']; sink: LiveSink }>();
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
          const over = shared.connections.take(caller.clientId);
          if (over) {
            socket.close(TRY_AGAIN_LATER, closeReason(`Try again later: ${over.message}`));
            return false;
          }
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
        const prepared = prepareSubscription(
          schema,
          payload,
          context,
          config.graphqlMaxCost,
          shared.documents,
        );
        if (Array.isArray(prepared)) return prepared;
        const refused = quota.take(caller.clientId);
        if (refused) return [refusal(refused)];
        state.subscriptions.add(id);
        const { contextValue: _context, ...bare } = prepared;
        opening.set(bare, {
          context,
          sink: webSocketSink(ctx.extra.socket, connections.get(ctx.extra.socket), id, live),
        });
        return bare;
      },
      subscribe: async (args) => {
        const open = opening.get(args);
        if (!open) throw new Error('graphql-ws subscribed an operation onSubscribe did not prepare');
        opening.delete(args);
        return shared.groups.open({ ...args, contextValue: open.context }, open.sink);
      },
      // Refusals before any event (FORBIDDEN, GONE...): events are written by the groups.
      onNext: (_ctx, _id, _payload, _args, result) => formattedResult(result, app.log),
      onError: (_ctx, _id, _payload, errors) => formattedErrors(errors, app.log),
      onComplete: (ctx, id) => release(stateOf(ctx.extra.socket), id),
      onClose: (ctx) => {
        const state = stateOf(ctx.extra.socket);
        for (const id of [...state.subscriptions]) release(state, id);
        if (state.caller) shared.connections.give(state.caller.clientId);
        state.caller = null;
      },
    },
    sockets,
  );

  // Heartbeats: a connection that did not answer the last ping is gone (its subscriptions end). A
  // ping is a write of its own: ten thousand connections are pinged in slices, requests running
  // between them, as the fan-out writes.
  let pinging = false;
  const pingAll = async () => {
    if (pinging) return;
    pinging = true;
    const slices = new WorkSlices(PINGING_MS_PER_TURN);
    try {
      for (const socket of [...sockets.clients]) {
        if (slices.spent()) await slices.next();
        // Closed while an earlier slice ran.
        if (socket.readyState === WebSocket.CLOSED) continue;
        const state = stateOf(socket);
        if (!state.alive) {
          socket.terminate();
          continue;
        }
        state.alive = false;
        socket.ping();
      }
    } finally {
      pinging = false;
    }
  };
  const heartbeat = setInterval(() => void pingAll(), live.heartbeatMs);
  heartbeat.unref();
  sockets.on('connection', (socket) => socket.on('pong', () => (stateOf(socket).alive = true)));

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== GRAPHQL_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      connections.set(ws, socket);
      sockets.emit('connection', ws, request);
    });
  });
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const socket of sockets.clients) socket.close(1001, 'the service is shutting down');
    await server.dispose();
  });
}

/** graphql-sse's heartbeat: a comment every 12 s keeps proxies from closing an idle stream. */
const SSE_HEARTBEAT_MS = 12_000;

const SSE_HEADERS = {
  connection: 'keep-alive',
  'cache-control': 'no-cache',
  'content-encoding': 'none',
  'content-type': 'text/event-stream; charset=utf-8',
};

const SSE_COMPLETE = 'event: complete\ndata:\n\n';

/** A result's SSE event, made once per result for every stream it goes to. */
const sseEvents = new WeakMap<SharedResult, Buffer>();

function sseEventOf(result: SharedResult): Buffer {
  let event = sseEvents.get(result);
  if (!event) {
    event = Buffer.concat([
      Buffer.from(`${result.cursor ? `id: ${result.cursor}\n` : ''}event: next\ndata: `),
      result.json,
      Buffer.from('\n\n'),
    ]);
    sseEvents.set(result, event);
  }
  return event;
}

/**
 * GraphQL over SSE (graphql-sse's distinct connections mode, its bytes) on POST /graphql with
 * `Accept: text/event-stream`, authenticated by the app's hook like any POST. Each event carries
 * the `id:` of its `cursor` (when selected), so a client reconnects with `Last-Event-ID` and
 * replays what it missed. A refused operation is answered as over graphql-ws, with the same codes:
 * its errors as the stream's one `next`, then `complete`; a client over its limits is answered 429.
 * Heartbeats are a comment every 12 s; a stream whose unsent bytes pass LIVE_SOCKET_BUFFER_KB ends
 * with a RATE_LIMITED error (slow consumer).
 */
export function eventStreamHandler(
  services: ContextServices,
  schema: GraphQLSchema,
  config: Pick<Config, 'live' | 'graphqlMaxCost'>,
  shared: LiveShared,
): EventStreamHandler {
  const live = config.live;
  return async function answerEventStream(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const caller = request.caller!;
    const over = shared.connections.take(caller.clientId);
    const refused = over ?? shared.subscriptions.take(caller.clientId);
    if (refused) {
      if (!over) shared.connections.give(caller.clientId);
      return reply
        .code(429)
        .type('application/json; charset=utf-8')
        .send({ errors: formattedErrors([refusal(refused)]) });
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      shared.subscriptions.give(caller.clientId);
      shared.connections.give(caller.clientId);
    };

    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, { ...SSE_HEADERS, 'x-request-id': request.id });
    // Some browsers show nothing of a stream until its first bytes.
    response.write(':\n\n');
    const heartbeat = setInterval(() => response.write(':\n\n'), SSE_HEARTBEAT_MS);
    heartbeat.unref();
    let ended = false;
    let membership: LiveMembership | null = null;
    const finish = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      response.off('close', finish);
      membership?.leave();
      release();
      response.end();
    };
    response.on('close', finish);
    /** The stream's last `next` (when there is one), then `complete`. */
    const complete = (last: FormattedExecutionResult | null) => {
      if (ended) return;
      if (last) response.write(`event: next\ndata: ${JSON.stringify(last)}\n\n`);
      response.write(SSE_COMPLETE);
      finish();
    };
    const sink: LiveSink = {
      write(result) {
        if (ended) return;
        response.write(sseEventOf(result));
        if (response.writableLength > live.socketBufferBytes) {
          const dropped = new DomainError(
            'rate_limited',
            `slow consumer: more than ${Math.round(live.socketBufferBytes / 1024)} KiB waited unsent; reconnect with Last-Event-ID`,
          );
          complete({ errors: formattedErrors([refusal(dropped)]) });
        }
      },
      end: () => complete(null),
      cork: () => response.cork(),
      uncork: () => response.uncork(),
    };

    try {
      const lastEventId = request.headers['last-event-id'];
      const context = liveContext(
        services,
        caller,
        request.id,
        request.log,
        typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : null,
      );
      const prepared = prepareSubscription(
        schema,
        requestOf(request.body),
        context,
        config.graphqlMaxCost,
        shared.documents,
      );
      if (Array.isArray(prepared)) {
        complete({ errors: formattedErrors(prepared) });
        return reply;
      }
      const opened = await shared.groups.open({ ...prepared, contextValue: context }, sink);
      if (!(opened instanceof LiveMembership)) {
        complete(formattedResult(opened, request.log));
        return reply;
      }
      membership = opened;
      // The client left while it subscribed.
      if (ended) opened.leave();
    } catch (error) {
      request.log.error({ err: error }, 'graphql subscription failed');
      finish();
    }
    return reply;
  };
}

/** The body of an SSE request as an operation: anything but an object has no fields. */
function requestOf(body: unknown): OperationRequest {
  return body !== null && typeof body === 'object' ? (body as OperationRequest) : { query: undefined };
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
  const shared: LiveShared = {
    groups: services.liveGroups,
    subscriptions: subscriptionQuota(config.live.perClient),
    connections: connectionQuota(config.live.connectionsPerClient),
    documents: new DocumentCache(),
  };
  // Gateway mode writes no journal: nothing to prune there.
  if (!services.upstream) services.live.startPruning();
  // Before the server waits for its connections: open streams end (GONE, "subscribe again") so
  // shutdown is not held by them.
  app.addHook('preClose', () => services.live.close());
  return (schema, trusted) => {
    registerWebSocketTransport(app, services, schema, config, shared, trusted);
    return eventStreamHandler(services, schema, config, shared);
  };
}
