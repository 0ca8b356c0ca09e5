// Every error as JSON `{ error: { code, message } }` with a sentence a person can read: route
// errors (HttpError), schema errors (zod), Fastify's own (bad JSON, body too large, a bad URL),
// and what node's HTTP parser refuses before Fastify sees a request (headers too large, a broken
// request), never a stack. What is logged never holds a query's parameters, a cookie or a token.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ZodError } from 'zod';
import { ERRORS, noRouteMessage, type WireErrorCode } from '../../src/shared/errors';
import type { ErrorResponse } from '../../src/shared/protocol';
import { describeZodError } from '../lib/describe-zod';
import { HttpError } from '../lib/http-error';

// Fastify's own errors, as codes of the vocabulary.
const FASTIFY_CODES: Record<string, WireErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'bad_content_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'empty_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad_json',
};

/** The body of an error answer. */
export const errorBody = (code: WireErrorCode, message: string = ERRORS[code].message, details?: object): ErrorResponse => ({
  error: { code, message, ...details },
});

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

// PostgreSQL's classes of passing trouble: connection (08), transaction rollback (40: deadlock,
// serialization), insufficient resources (53: disk full, too many connections), operator
// intervention (57: shutdown, statement timeout), and a read-only database after a failover.
const TRANSIENT_CLASSES = ['08', '40', '53', '57'];
const READ_ONLY_TRANSACTION = '25006';

/**
 * Whether `error` means the database cannot do its work right now (a restart, a failover, a full
 * disk, a deadlock), not a bug: answered 503 so a device retries later instead of counting a failure.
 */
export function databaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  if (UNAVAILABLE.has(code) || code === READ_ONLY_TRANSACTION) return true;
  return /^[0-9A-Z]{5}$/.test(code) && TRANSIENT_CLASSES.includes(code.slice(0, 2));
}

/** The answer to any error of a request: the app's (setErrorHandler) and Fastify's own routing errors (frameworkErrors). */
export function handleError(error: FastifyError | HttpError | ZodError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof HttpError) {
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send(errorBody(error.code, error.message, error.details));
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
}

/** Installs the JSON error handler and the JSON 404 for /api. */
export function setupErrors(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
}

/**
 * Fastify's `clientErrorHandler`: node's HTTP parser refused a request before any route (headers
 * over its limit, a malformed request line, a timeout). Answered in the documented shape, not
 * Fastify's own. The error itself is never logged: its `rawPacket` holds the request's bytes,
 * session cookie included.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: WireErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'headers_too_large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : 'bad_request';
  const status = ERRORS[code].status;
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(errorBody(code));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** What a log line must never show: query parameters and row values of database errors, cookies, raw requests. */
export const LOG_REDACT = [
  'err.params',
  'err.parameters',
  'err.args',
  'err.detail',
  'err.where',
  'err.rawPacket',
  'err.cause.params',
  'err.cause.parameters',
  'err.cause.detail',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
];

/** The logger options with LOG_REDACT (a second guard: the database adapters already drop parameters). */
export function redactedLogger(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  return { ...(logger === true ? {} : logger), redact: { paths: LOG_REDACT, remove: true } };
}

/** The 404 of /api and of anything that is neither a file nor an app route. */
export function apiNotFound(url: string): ErrorResponse {
  return errorBody('no_route', noRouteMessage(url.split('?')[0] ?? url));
}
