// "Hive Gateway + response cache (short TTL, may answer stale)" in `npm run bench:gateway`: the
// gateway's built-in response cache (`responseCaching`, @graphql-mesh/plugin-response-cache). Every
// caller shares one session; a whole GraphQL answer is kept for 1 s (`ttl` is in milliseconds) and
// served without asking the upstream, so it can be up to 1 s older than the upstream's data.
// The store is Mesh's in-memory LRU, the one the gateway uses by default under Node, with room for
// 100,000 entries instead of 1,000: the plugin writes two entries per entity id of an answer, and a
// page of 500 rate changes would evict its own answer from the default store (never a hit).
import { defineConfig } from '@graphql-hive/gateway';
import InMemoryLRUCache from '@graphql-mesh/cache-inmemory-lru';

export const gatewayConfig = defineConfig({
  cache: ({ pubsub }) => new InMemoryLRUCache({ max: 100_000, pubsub }),
  responseCaching: {
    session: () => null,
    ttl: 1000,
  },
});
