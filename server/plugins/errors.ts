// Every error as JSON `{ error: { code, message } }` with a sentence a person can read: route
// errors (HttpError), schema errors (zod), Fastify's own (bad JSON, body too large), never a stack.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { HttpError } from '../lib/http-error';

const FASTIFY_MESSAGES: Record<string, [string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['too_large', 'The request is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['bad_content_type', 'Send the request body as JSON (content-type: application/json).'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid', 'The request body is empty: send JSON.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid', 'The request body is not valid JSON.'],
};

/** A readable sentence from zod issues: the first problem, with the field it is about. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return `Invalid ${field}: ${issue.message}`;
}

// Connection failures of the `postgres` client and PostgreSQL's own shutdown/startup/connection codes.
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** Whether `error` means the database is not reachable now (a restart, a failover), not a bug. */
export function databaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && UNAVAILABLE.has(code);
}

/** Installs the JSON error handler and the JSON 404 for /api. */
export function setupErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ error: { code: error.code, message: error.message } });
    }
    if (error instanceof ZodError) {
      return reply.code(400).send({ error: { code: 'invalid', message: describeZodError(error) } });
    }
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    if (known) return reply.code(error.statusCode ?? 400).send({ error: { code: known[0], message: known[1] } });
    if (error.statusCode && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ error: { code: 'bad_request', message: 'The request is not valid.' } });
    }
    if (databaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({
          error: { code: 'database_unavailable', message: 'The database cannot be reached right now. Please try again in a moment.' },
        });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ error: { code: 'server_error', message: 'Something went wrong on the server. Please try again.' } });
  });
}

/** The 404 of /api and of anything that is neither a file nor an app route. */
export function apiNotFound(url: string): { error: { code: string; message: string } } {
  return { error: { code: 'not_found', message: `There is nothing at ${url.split('?')[0]}.` } };
}
