import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { transportErrorBody } from '../errors';
import { assetFile, findExplorerBundle, type ExplorerBundle } from './explorer.bundle';

/**
 * GraphiQL with the explorer plugin, served from this service's own files (docs/graphql.md#the-explorer):
 * the page at the GraphQL path, its script, stylesheet and Monaco's workers under `<path>/explorer/`.
 * Nothing loads from another origin, and the Content-Security-Policy allows nothing else: same-origin
 * `connect-src 'self'` covers the WebSocket of subscriptions too (Chromium, checked by the browser
 * test). Inline styles are allowed, as the only exception: Monaco writes its theme and layout into
 * `<style>` elements at run time (without a nonce), and fonts and images stay held to `'self'`/`data:`.
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; worker-src 'self'; connect-src 'self'; " +
    "img-src 'self' data:; font-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** A year, and never revalidated: a new build names its files anew. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Only the names the build gives: `<name>.<hash>.<extension>`. */
const ASSET_NAME = /^[\w.-]+$/;

const ROUTE = { schema: { hide: true } } as const;

function explorerPage(bundle: ExplorerBundle, assets: string, endpoint: string): string {
  const { script, stylesheet } = bundle.manifest;
  if (![script, stylesheet].every((name) => ASSET_NAME.test(name))) {
    throw new Error(`the explorer's manifest in ${bundle.dir} names unexpected files`);
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL · facility-ops</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets}/${stylesheet}">
<script type="module" src="${assets}/${script}"></script>
</head>
<body>
<div id="graphiql" data-endpoint="${endpoint}">Loading GraphiQL…</div>
</body>
</html>
`;
}

/** Answers a browser's GET of the GraphQL path with the explorer's page. */
export type ExplorerPage = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/**
 * Mounts the explorer's files under `<graphqlPath>/explorer/` and returns what answers its page.
 * The bundle is built by `npm run build` (scripts/build-explorer.js); without it the page says so.
 */
export function registerExplorer(app: FastifyInstance, graphqlPath: string): ExplorerPage {
  const assets = `${graphqlPath}/explorer`;
  let bundle = findExplorerBundle();
  if (bundle === null) {
    app.log.warn('the GraphQL explorer is not built: run `npm run build` (GRAPHQL_EXPLORER=graphiql)');
  }

  app.get<{ Params: { file: string } }>(`${assets}/:file`, ROUTE, async (request, reply) => {
    const asset = bundle && assetFile(bundle, request.params.file, request.headers['accept-encoding']);
    if (!asset) {
      return reply
        .code(404)
        .type('application/json; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(transportErrorBody('no such file in this build of the explorer', { code: 'NOT_FOUND' }));
    }
    reply
      .type(asset.type)
      .header('Cache-Control', IMMUTABLE)
      .header('Vary', 'Accept-Encoding')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cross-Origin-Resource-Policy', 'same-origin');
    if (asset.encoding) reply.header('Content-Encoding', asset.encoding);
    return reply.send(await readFile(asset.file));
  });

  return (_request, reply) => {
    bundle ??= findExplorerBundle();
    reply.headers(PAGE_HEADERS).header('Cache-Control', 'no-cache');
    if (bundle === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The GraphQL explorer is not built on this server: run `npm run build`.\n');
    }
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .send(explorerPage(bundle, assets, graphqlPath));
  };
}
