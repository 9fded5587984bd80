import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ContractUpstream, UpstreamCall } from './upstream.ports';
import { registerContractRoutes, type ContractRoute } from '../rest/contract-routes';
import { sendError } from '../rest/errors';
import { formPairs } from '../rest/nested-params';
import { keepJsonText } from '../rest/json-text';
import { filterSensitive } from '../rest/envelope';
import { mayHoldCardNumber, maskCardNumbersIn } from '../kernel/card-numbers';

const isOAuth = ([name]: readonly [string, string]) => name.startsWith('oauth_');

const ENVELOPE_META = Buffer.from('"meta":{');

/**
 * An upstream answer's body with card data in its `meta` (the echo of what was forwarded, the
 * message naming a path or an id) filtered and masked as this service does its own, so the caller
 * never sees more than this deployment would show, whatever version the upstream runs. Only the
 * meta (the envelope's last key) is read, and it is rewritten only when it may hold a card number.
 */
function withMaskedMeta(body: Buffer): Buffer {
  const at = body.lastIndexOf(ENVELOPE_META);
  if (at < 0 || body[body.length - 1] !== 0x7d) return body;
  const text = body.toString('utf8', at + ENVELOPE_META.length - 1, body.length - 1);
  if (!mayHoldCardNumber(text)) return body;
  let meta: unknown;
  try {
    meta = JSON.parse(text);
  } catch {
    return body;
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return body;
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    shown[key] = key === 'parameters' ? filterSensitive(value) : maskCardNumbersIn(value);
  }
  return Buffer.concat([body.subarray(0, at), Buffer.from(`"meta":${JSON.stringify(shown)}}`)]);
}

/**
 * Gateway mode's /v1, registered from the same table of contract routes as the system of record's
 * (`routes`, src/modules.ts): every route keeps its path, method, authentication, the edge's checks and its
 * OpenAPI entry, but its handler forwards the request to the upstream and answers what the
 * upstream answered, status and bytes. The route's own validation is left to the upstream, so an
 * answer to a bad request is the upstream's too. A plugin of its own: its JSON parser, which keeps
 * the body's text to forward it as it came, serves these routes alone.
 */
export async function registerGatewayRoutes(
  app: FastifyInstance,
  upstream: ContractUpstream,
  routes: readonly ContractRoute<never>[],
): Promise<void> {
  await app.register(async (scope) => {
    // The app's own handler is set after the routes register, later than this scope would inherit it.
    scope.setErrorHandler((error, request, reply) => sendError(error, request, reply));
    // A JSON body is forwarded as its text came.
    keepJsonText(scope);
    const forward = forwardTo(upstream);
    registerContractRoutes(scope, routes, () => forward, {
      validatorCompiler: () => () => true,
    });
  });
}

/** The handler of every route in gateway mode: the request, sent on with the gateway's credentials. */
function forwardTo(upstream: ContractUpstream) {
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const index = request.url.indexOf('?');
    const path = index < 0 ? request.url : request.url.slice(0, index);
    // The caller's own OAuth parameters stay here: the gateway signs with its upstream credentials.
    const query = index < 0 ? [] : formPairs(request.url.slice(index + 1)).filter((pair) => !isOAuth(pair));
    let body: UpstreamCall['body'];
    if (request.jsonText !== null) body = { type: 'json', text: request.jsonText };
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
    const json = /json/.test(answer.headers['content-type'] ?? '');
    return reply.send(json ? withMaskedMeta(answer.body) : answer.body);
  };
  return forward;
}
