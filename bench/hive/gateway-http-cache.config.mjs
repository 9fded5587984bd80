// "Hive Gateway + HTTP cache (same freshness)" in `npm run bench:gateway`: the HTTP caching plugin
// as the Hive Gateway documentation gives it (the plugin context spread in, so the gateway's own
// cache: with no `cache` set, Mesh's LocalForage store, an in-memory LRU under Node). It keeps what
// the upstream's headers allow (http-cache-semantics, a shared cache) and revalidates a stale entry
// with If-None-Match; it has no freshness of its own to set, so an answer is never older than the
// upstream's headers say. The upstream (facility-ops) sends a weak ETag and no Cache-Control, and
// the gateway's requests carry a bearer token: a shared cache may not store such an answer
// (RFC 9111 3.5), and plugin-http-cache 0.108.1 does not pass `policyOptions` (`shared: false`) on.
import { defineConfig } from '@graphql-hive/gateway';
import useHTTPCache from '@graphql-mesh/plugin-http-cache';

export const gatewayConfig = defineConfig({
  plugins: (ctx) => [useHTTPCache({ ...ctx })],
});
