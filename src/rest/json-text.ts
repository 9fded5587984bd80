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
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.jsonText = body as string;
    parseJson(request, body as string, done);
  });
}
