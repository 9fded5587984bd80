import 'graphiql/style.css';
import '@graphiql/plugin-explorer/style.css';
import './explorer.css';
import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import { explorerPlugin } from '@graphiql/plugin-explorer';
import { GraphiQL } from 'graphiql';
import { parse, type DocumentNode } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { createRoot } from 'react-dom/client';

/** The hashed names of Monaco's workers, set by scripts/build-explorer.js when it bundles this page. */
declare const EXPLORER_WORKERS: { editor: string; json: string; graphql: string };

// Monaco's editor, JSON and GraphQL workers, served beside this script (no other origin).
Object.assign(globalThis, {
  MonacoEnvironment: {
    getWorker(_workerId: string, label: string): Worker {
      const name =
        label === 'json'
          ? EXPLORER_WORKERS.json
          : label === 'graphql'
            ? EXPLORER_WORKERS.graphql
            : EXPLORER_WORKERS.editor;
      return new Worker(new URL(name, import.meta.url), { name: label });
    },
  },
});

const root = document.getElementById('graphiql')!;
const endpoint = new URL(root.dataset.endpoint ?? '/graphql', window.location.href);
const socketUrl = `${endpoint.protocol === 'https:' ? 'wss:' : 'ws:'}//${endpoint.host}${endpoint.pathname}`;

/** The `Authorization` header of the headers editor, whatever its case. */
function authorizationOf(headers: Record<string, unknown> | undefined): string | undefined {
  const entry = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization');
  return typeof entry?.[1] === 'string' ? entry[1] : undefined;
}

/**
 * The service authenticates a WebSocket by `Authorization` in connection_init's payload
 * (docs/subscriptions.md), read when the socket opens: a new header opens a new socket.
 */
let socket: { authorization: string | undefined; client: Client } | null = null;
function socketFor(authorization: string | undefined): Client {
  if (socket !== null && socket.authorization === authorization) return socket.client;
  void socket?.client.dispose();
  const client = createClient({
    url: socketUrl,
    connectionParams: authorization === undefined ? {} : { Authorization: authorization },
  });
  socket = { authorization, client };
  return client;
}

/**
 * The document of the operation being run, parsed from its own text. GraphiQL hands the fetcher
 * the editor's document as it parsed it after a pause in typing, so a run right after an edit (a
 * subscription pasted over a query) was told the previous one and sent a subscription over HTTP.
 */
function documentOf(query: string): DocumentNode | undefined {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
}

const fetcher: Fetcher = (params, options) =>
  createGraphiQLFetcher({
    url: endpoint.href,
    wsClient: socketFor(authorizationOf(options?.headers)),
  })(params, { ...options, documentAST: documentOf(params.query) ?? options?.documentAST });

const search = new URLSearchParams(window.location.search);
createRoot(root).render(
  <GraphiQL
    fetcher={fetcher}
    plugins={[explorerPlugin()]}
    initialQuery={search.get('query') ?? undefined}
    initialVariables={search.get('variables') ?? undefined}
    defaultHeaders={'{\n  "Authorization": "Bearer <token>"\n}'}
  />,
);
