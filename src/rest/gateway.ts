import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ContractUpstream, UpstreamCall } from '../domain/gateway/upstream.ports';
import { formPairs } from './nested-params';

declare module 'fastify' {
  interface FastifyRequest {
    /** Gateway mode: a JSON body's text as received, forwarded as it is. */
    rawJson: string | null;
  }
}

const isOAuth = ([name]: readonly [string, string]) => name.startsWith('oauth_');

/**
 * Gateway mode's /v1: every contract route keeps its path, method, authentication, the edge's
 * checks and its OpenAPI entry, but its handler forwards the request to the upstream and answers
 * what the upstream answered, status and bytes. The route's own validation is left to the
 * upstream, so an answer to a bad request is the upstream's too. Call before the routes register.
 */
export function forwardV1ToUpstream(app: FastifyInstance, upstream: ContractUpstream): void {
  app.decorateRequest('rawJson', null);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawJson = body as string;
    parseJson(request, body as string, done);
  });

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const index = request.url.indexOf('?');
    const path = index < 0 ? request.url : request.url.slice(0, index);
    // The caller's own OAuth parameters stay here: the gateway signs with its upstream credentials.
    const query = index < 0 ? [] : formPairs(request.url.slice(index + 1)).filter((pair) => !isOAuth(pair));
    let body: UpstreamCall['body'];
    if (request.rawJson !== null) body = { type: 'json', text: request.rawJson };
    else if (request.formPairs.length > 0)
      body = { type: 'form', pairs: request.formPairs.filter((pair) => !isOAuth(pair)) };
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const answer = await upstream.call({
      companyId: request.caller!.companyId,
      clientId: request.caller!.clientId,
      // HEAD is GET without the body (RFC 9110 9.3.2): the upstream is asked the GET, whose answer
      // is checked and shared as any GET's, and Node sends its headers alone.
      method: request.method === 'HEAD' ? 'GET' : request.method,
      path,
      query,
      body,
      requestId: request.id,
      idempotencyKey: header('idempotency-key'),
      ifNoneMatch: header('if-none-match'),
    });
    reply.code(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
    return reply.send(answer.body);
  };

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/') || route.config?.public) return;
    route.handler = forward;
    route.validatorCompiler = () => () => true;
  });
}
