// One log line per request, when its answer is finished: method, path, status and time taken. It
// replaces Fastify's two ("incoming request", then "request completed"); Fastify's other lines
// (a stream cut after its headers, …) stay. The query string is left out: logs hold no parameters.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Fastify's `logController`: nothing when a request comes in, one line when it is answered. */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: request.url.split('?')[0],
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
