'use strict';
/**
 * Bare Fastify routes answering constant bodies: the floor any /v1 route is measured against.
 * Each file named on the command line is served at /constant/<its position>, so every scenario has
 * a floor of its own size.
 */
const fs = require('node:fs');
const Fastify = require('fastify');

async function main() {
  const app = Fastify({ logger: false });
  process.argv.slice(2).forEach((file, index) => {
    const body = fs.readFileSync(file);
    app.get(`/constant/${index}`, (_request, reply) => {
      reply.header('content-type', 'application/json; charset=utf-8').send(body);
    });
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ address })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
