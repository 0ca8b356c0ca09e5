// GET /api/events: the live stream (Server-Sent Events). It only says "changes up to N exist",
// on connect and whenever the head moves (here or, through NOTIFY, on another instance), with a
// heartbeat comment so proxies keep it open. It never carries post data. A member route: the
// scope's hook has checked the session.
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context';

export default async function eventsRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  const open = new Set<() => void>();
  // Streams never finish by themselves: end them so that closing the server (SIGTERM) does not wait.
  app.addHook('preClose', async () => {
    for (const close of open) close();
  });

  app.get('/api/events', async (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const announce = (cursor: number) => res.write(`event: changes\ndata: ${JSON.stringify({ cursor })}\n\n`);
    announce(ctx.hub.cursor);
    const unsubscribe = ctx.hub.subscribe(announce);
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), ctx.heartbeatMs);
    const close = () => {
      open.delete(close);
      clearInterval(heartbeat);
      unsubscribe();
      res.end();
    };
    open.add(close);
    request.raw.on('close', close);
  });
}
