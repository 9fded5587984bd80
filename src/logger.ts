import pino, { type DestinationStream, type Logger } from 'pino';
import type { FastifyRequest } from 'fastify';

/** Query parameters that carry credentials; their values never reach a log line. */
const SECRET_QUERY = /([?&](?:oauth_[a-z_]+|access_token|token)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[REDACTED]');
}

/**
 * The service's pino logger. Request lines carry method, route url (credentials removed), request
 * id and remote address; headers and bodies are never logged, so Authorization and card data stay out.
 */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          '*.consumer_secret',
          '*.bearer_token',
          '*.card_number',
          '*.security_code',
          '*.magnetic_track',
          '*.account_number',
          '*.account_number_confirmation',
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        req(request: FastifyRequest) {
          return {
            method: request.method,
            url: redactUrl(request.url),
            remoteAddress: request.ip,
          };
        },
      },
    },
    stream,
  );
}
