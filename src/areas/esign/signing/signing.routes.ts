import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config';
import { DomainError } from '../../../kernel/errors';
import { tokenHash } from '../esign.tokens';
import type { SignCommand, Viewer } from '../esign.types';
import type { SignOutcome, SigningService } from '../signing.service';
import { retryAfterOverLimit, type RateLimitStore } from '../../../ops/rate-limit';
import { SIGNING_SCRIPT, SIGNING_STYLESHEET } from './signing.assets';
import { readSigningForm } from './signing.form';
import { completedPage, messagePage, refusalPage, signingPage, type Page } from './signing.pages';

/** The largest form taken: a drawn signature of at most 256 KiB, base64 and form-encoded, and the rest. */
export const SIGNING_BODY_LIMIT = 640 * 1024;

/**
 * Strict headers on every answer of the signing pages: nothing loads from another origin, the page
 * is never framed, and no Referer carries the token anywhere.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Options of every signing route: no API credentials, and not in the REST contract's document. */
const ROUTE = { schema: { hide: true } } as const;

interface TokenParams {
  token: string;
}

const RATE_WINDOW_MS = 60_000;
/** What a signer is told to wait when every turn for submissions is taken. */
const BUSY_RETRY_SECONDS = 5;

interface DocumentParams extends TokenParams {
  document_id: string;
}

function viewerOf(request: FastifyRequest): Viewer {
  const agent = request.headers['user-agent'];
  return { ipAddress: request.ip, userAgent: typeof agent === 'string' ? agent : null };
}

function sendPage(reply: FastifyReply, page: Page): FastifyReply {
  return reply
    .code(page.status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .send(page.html);
}

const signPath = (token: string) => `/sign/${encodeURIComponent(token)}`;
const documentPath = (token: string) => (id: string) => `${signPath(token)}/documents/${id}`;

/** Pages for what cannot be read as the signing form. */
function unreadableForm(status: number, token: string | null, title: string, detail: string): Page {
  return messagePage(status, title, [detail, 'Nothing was signed.'], {
    link: token ? { href: signPath(token), text: 'Go back to the signing page' } : undefined,
  });
}

/** The service the signing pages call. */
interface RouteServices {
  readonly signing: SigningService;
}

/**
 * The public signing pages (DESIGN 10), a transport of their own beside REST and GraphQL: no API
 * credentials (the token in the path is the key), HTML answers, strict security headers, and a
 * page for every failure (never the JSON envelope, never a 500 for bad input).
 *
 * - `GET /s/:token`: the short form a text message carries; leads to the page.
 * - `GET /sign/:token`: the documents, the consent, the name and the signature (or why the link
 *   cannot be used, or the signed documents).
 * - `POST /sign/:token`: signs every document at once (form-encoded: name, consent, signature).
 * - `GET /sign/:token/documents/:document_id`: one of the link's documents as a PDF (signed once signed).
 *
 * Every route naming a token counts against two budgets a minute, the client address's and the
 * token's (`SIGNING_RATE_LIMIT_PER_ADDRESS`, `SIGNING_RATE_LIMIT_PER_TOKEN`), before its body is
 * read; over either, 429 with Retry-After.
 */
export function registerSigningRoutes(
  app: FastifyInstance,
  services: RouteServices,
  config: Pick<Config, 'publicBaseUrl' | 'signingRateLimit'>,
  rateLimits: RateLimitStore,
): void {
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  const overBudget = budgetCheck(config.signingRateLimit, rateLimits);

  // Not awaited: the routes before it keep the error handler the app sets after (awaiting would
  // build them now, with Fastify's default one).
  void app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
      return payload;
    });
    scope.setErrorHandler(answerFailure);

    // Counted as soon as the route is known, so a refused request's body is never parsed.
    scope.addHook('onRequest', async (request, reply) => {
      const token = (request.params as Partial<TokenParams> | undefined)?.token;
      if (token === undefined) return;
      const retryAfter = await overBudget(request, token);
      if (retryAfter === null) return;
      reply.header('Retry-After', String(retryAfter));
      return sendPage(
        reply,
        messagePage(429, 'Too many tries for now', [
          `Nothing was signed. Wait ${retryAfter === 1 ? 'a second' : `${retryAfter} seconds`} and open the signing page again.`,
        ]),
      );
    });

    registerPageRoutes(scope, services);
    scope.post<{ Params: TokenParams }>(
      '/sign/:token',
      { ...ROUTE, bodyLimit: SIGNING_BODY_LIMIT },
      async (request, reply) => submit(services, publicOrigin, request, reply),
    );
  });
}

/**
 * Seconds until a request naming `token` may be tried again, or null when it is within both budgets
 * (the client address's and the token's). When the counter store fails, the request is allowed.
 */
function budgetCheck(
  { perAddress, perToken }: Config['signingRateLimit'],
  rateLimits: RateLimitStore,
): (request: FastifyRequest, token: string) => Promise<number | null> {
  return async (request, token) => {
    const budgets: Array<[string, number]> = [
      [`sign:ip:${request.ip}`, perAddress],
      // The token's hash, so no counter store (Redis) ever holds a usable link.
      [`sign:token:${tokenHash(token)}`, perToken],
    ];
    let storeDown = false;
    for (const [key, limit] of budgets) {
      if (limit === 0 || storeDown) continue;
      const retryAfter = await retryAfterOverLimit(rateLimits, key, limit, RATE_WINDOW_MS, (error) => {
        storeDown = true;
        request.log.warn({ err: error }, 'rate limit store unavailable; request allowed');
      });
      if (retryAfter !== null) return retryAfter;
    }
    return null;
  };
}

/** A page for whatever the signing routes throw: what the caller sent wrong, or our own failure. */
function answerFailure(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const token = (request.params as Partial<TokenParams> | undefined)?.token ?? null;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return sendPage(
      reply,
      unreadableForm(
        413,
        token,
        'What was sent is too large',
        'Clear your signature, draw it again and sign.',
      ),
    );
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return sendPage(reply, notTheForm(415, token));
  }
  const status = error instanceof DomainError ? 400 : (error.statusCode ?? 500);
  if (status >= 400 && status < 500) return sendPage(reply, notTheForm(400, token));
  request.log.error({ err: error }, 'signing page failed');
  return sendPage(
    reply,
    messagePage(500, 'Something went wrong on our side', [
      'Nothing was signed. Try again in a few minutes; if it keeps happening, contact the facility that sent you the link.',
    ]),
  );
}

/** The page's own assets, the short link, the page and its documents: everything but the submission. */
function registerPageRoutes(scope: FastifyInstance, services: RouteServices): void {
  for (const asset of [SIGNING_STYLESHEET, SIGNING_SCRIPT]) {
    scope.get(asset.path, ROUTE, async (_request, reply) =>
      reply
        .type(asset.type)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .send(asset.content),
    );
  }

  scope.get<{ Params: TokenParams }>('/s/:token', ROUTE, async (request, reply) =>
    reply
      .code(303)
      .header('Cache-Control', 'no-store')
      .header('Location', signPath(request.params.token))
      .send(),
  );

  scope.get<{ Params: TokenParams }>('/sign/:token', ROUTE, async (request, reply) => {
    const { token } = request.params;
    const page = await services.signing.open(token, viewerOf(request));
    if (page.kind === 'open') {
      return sendPage(
        reply,
        signingPage(page, { action: signPath(token), documentHref: documentPath(token) }),
      );
    }
    if (page.kind === 'completed') return sendPage(reply, completedPage(page, documentPath(token)));
    return sendPage(reply, refusalPage(page));
  });

  scope.get<{ Params: DocumentParams }>(
    '/sign/:token/documents/:document_id',
    ROUTE,
    async (request, reply) => {
      const { token, document_id: documentId } = request.params;
      const pdf = await services.signing.documentPdf(token, documentId);
      if (pdf === null) {
        return sendPage(
          reply,
          messagePage(404, 'No such document here', ['This link does not offer that document.'], {
            link: { href: signPath(token), text: 'Go back to the signing page' },
          }),
        );
      }
      if ('kind' in pdf) return sendPage(reply, refusalPage(pdf));
      return reply
        .code(200)
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${pdf.filename}"`)
        .header('Cache-Control', 'private, no-store')
        .send(pdf.content);
    },
  );
}

/** `POST /sign/:token`: the form read, then signed, and the outcome's page (or back to the page). */
async function submit(
  services: RouteServices,
  publicOrigin: string,
  request: FastifyRequest<{ Params: TokenParams }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { token } = request.params;
  if (!sameOrigin(request, publicOrigin)) {
    return sendPage(
      reply,
      messagePage(
        403,
        'This form can only be sent from its signing page',
        ['Nothing was signed. Open the signing page and sign there.'],
        { link: { href: signPath(token), text: 'Go to the signing page' } },
      ),
    );
  }
  const form = readSigningForm(request.headers['content-type'], request.body);
  if (form === 'unsupported') return sendPage(reply, notTheForm(415, token));
  if (form === 'unreadable') return sendPage(reply, notTheForm(400, token));
  const outcome = await services.signing.sign(token, form, viewerOf(request));
  return answerOutcome(reply, token, form, outcome);
}

/** What a submission that was read as the form leads to: back to the page, or a page saying why not. */
function answerOutcome(
  reply: FastifyReply,
  token: string,
  form: SignCommand,
  outcome: SignOutcome,
): FastifyReply {
  switch (outcome.kind) {
    case 'signed':
      // Back to the page, which now shows the signed documents; a reload does not submit again.
      return reply.code(303).header('Cache-Control', 'no-store').header('Location', signPath(token)).send();
    case 'invalid':
      return sendPage(
        reply,
        signingPage(outcome.page, {
          action: signPath(token),
          documentHref: documentPath(token),
          problems: outcome.problems,
          values: { name: form.name, consent: form.consent },
        }),
      );
    case 'already_signed':
      return sendPage(
        reply,
        messagePage(
          409,
          'These documents are signed already',
          ['They were signed before this submission, which changed nothing.'],
          {
            facility: outcome.facility.name,
            link: { href: signPath(token), text: 'See the signed documents' },
          },
        ),
      );
    case 'busy':
      reply.header('Retry-After', String(BUSY_RETRY_SECONDS));
      return sendPage(
        reply,
        messagePage(
          503,
          'Too many signatures are being worked on right now',
          [`Nothing was signed. Wait ${BUSY_RETRY_SECONDS} seconds and sign again.`],
          { link: { href: signPath(token), text: 'Go back to the signing page' } },
        ),
      );
    default:
      return sendPage(reply, refusalPage(outcome));
  }
}

function notTheForm(status: number, token: string | null): Page {
  return unreadableForm(
    status,
    token,
    'We could not read what was sent',
    'Only the signing form can be sent here. Go back to the signing page and sign there.',
  );
}

/**
 * Whether a submission comes from a page of this service: the browser says so (`Sec-Fetch-Site`),
 * or its Origin is this service's. Browsers send `Origin: null` under `Referrer-Policy:
 * no-referrer`, which says nothing; the token in the path is then the only key, as for a client
 * that sends neither header.
 */
function sameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return true;
  return origin === publicOrigin || origin === `${request.protocol}://${request.host}`;
}
