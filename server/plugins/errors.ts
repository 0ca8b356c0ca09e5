// Every error as JSON `{ error: { code, message } }` with a sentence a person can read: route
// errors (HttpError), schema errors (zod), Fastify's own (bad JSON, body too large, a bad URL),
// and what node's HTTP parser refuses before Fastify sees a request (headers too large, a broken
// request), never a stack. What is logged never holds a query's parameters, a cookie or a token.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ZodError } from 'zod';
import { HttpError } from '../lib/http-error';

const BAD_REQUEST = 'The request is not valid.';
const HEADERS_TOO_LARGE = 'The request’s headers are too large.';
const REQUEST_TIMEOUT = 'The request took too long to arrive.';

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

/** The answer to any error of a request: the app's (setErrorHandler) and Fastify's own routing errors (frameworkErrors). */
export function handleError(error: FastifyError | HttpError | ZodError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
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
    return reply.code(error.statusCode).send({ error: { code: 'bad_request', message: BAD_REQUEST } });
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
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, HEADERS_TOO_LARGE]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, REQUEST_TIMEOUT]
        : [400, BAD_REQUEST];
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ error: { code: status === 431 ? 'too_large' : 'bad_request', message } });
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
export function apiNotFound(url: string): { error: { code: string; message: string } } {
  return { error: { code: 'not_found', message: `There is nothing at ${url.split('?')[0]}.` } };
}
