// Every error as JSON `{ error: { code, message } }` with a sentence a person can read: route
// errors (HttpError), schema errors (zod), Fastify's own (bad JSON, body too large), never a stack.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { ERRORS, noRouteMessage, type WireErrorCode } from '../../src/shared/errors';
import type { ErrorResponse } from '../../src/shared/protocol';
import { describeZodError } from '../lib/describe-zod';
import { HttpError, refuse } from '../lib/http-error';

// Fastify's own errors, as codes of the vocabulary.
const FASTIFY_CODES: Record<string, WireErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'bad_content_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'empty_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad_json',
};

/** The body of an error answer. */
export const errorBody = (code: WireErrorCode, message: string = ERRORS[code].message): ErrorResponse => ({ error: { code, message } });

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
      return reply.code(error.statusCode).headers(error.headers).send(errorBody(error.code, error.message));
    }
    if (error instanceof ZodError) return reply.code(400).send(errorBody('invalid', describeZodError(error)));
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return reply.code(ERRORS[known].status).send(errorBody(known));
    if (error.statusCode && error.statusCode < 500) return reply.code(error.statusCode).send(errorBody('bad_request'));
    if (databaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(ERRORS.database_unavailable.status).header('retry-after', '5').send(errorBody('database_unavailable'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(ERRORS.server_error.status).send(errorBody('server_error'));
  });
}

/** The 404 of /api and of anything that is neither a file nor an app route. */
export function apiNotFound(url: string): ErrorResponse {
  return errorBody('no_route', noRouteMessage(url.split('?')[0] ?? url));
}

export { refuse };
