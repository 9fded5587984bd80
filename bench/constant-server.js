'use strict';
/** A bare Fastify route answering a constant body: the floor any /v1 route is measured against. */
const fs = require('node:fs');
const Fastify = require('fastify');

async function main() {
  const body = fs.readFileSync(process.argv[2]);
  const app = Fastify({ logger: false });
  app.get('/constant', (_request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8').send(body);
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ address })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
