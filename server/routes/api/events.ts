// GET /api/events: the live stream (Server-Sent Events). It only says "changes up to N exist",
// on connect and whenever the head moves (here or, through NOTIFY, on another instance), with a
// heartbeat comment so proxies keep it open, to the streams that may see the change (lib/change-hub.ts).
// It never carries post data. A member route: the
// scope's hook has checked the session. One session holds at most STREAMS_PER_SESSION streams and
// the instance MAX_LIVE_STREAMS (429 beyond); a session's streams end when it is revoked, on any
// instance (db/accounts.ts announces it on ie_sessions).
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context';
import { hashToken, SESSIONS_CHANNEL } from '../../db/members/accounts';
import { refuse } from '../../lib/http-error';
import { LiveStreams } from '../../lib/live-streams';
import { memberOf, SESSION_COOKIE } from '../../plugins/session';

export default async function eventsRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  const streams = new LiveStreams(ctx.streamLimits);
  /** After the listening came back (PostgreSQL restarted): ends the streams of sessions revoked meanwhile. */
  const endRevoked = async () => {
    const open = streams.sessions;
    if (open.length === 0) return;
    const rows = await ctx.db
      .query<{ token_hash: string }>(
        'SELECT token_hash FROM sessions WHERE token_hash = ANY($1::text[]) AND ended_reason IS NULL AND expires_at > now()',
        [open],
      )
      .catch(() => undefined); // away again: the next listen calls this once more
    if (!rows) return;
    const live = new Set(rows.map((row) => String(row.token_hash)));
    for (const session of open) if (!live.has(session)) streams.closeSession(session);
  };
  const stopListening = await ctx.db.listen(
    SESSIONS_CHANNEL,
    (tokenHash) => streams.closeSession(tokenHash),
    () => void endRevoked(),
  );
  // Streams never finish by themselves: end them so that closing the server (SIGTERM) does not wait.
  app.addHook('preClose', async () => streams.closeAll());
  app.addHook('onClose', async () => stopListening());

  app.get('/api/events', async (request, reply) => {
    const session = hashToken(request.cookies[SESSION_COOKIE]!);
    const member = memberOf(request);
    const refusal = streams.refusal(session);
    if (refusal === 'session') throw refuse('too_many_streams');
    if (refusal === 'instance') throw refuse('server_busy', undefined, { 'retry-after': '30' });
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
    // Told of the changes this member may see (the hub reads their groups).
    const unsubscribe = ctx.hub.subscribe(announce, { userId: member.id, admin: member.role === 'admin' });
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), ctx.heartbeatMs);
    const close = () => {
      forget();
      clearInterval(heartbeat);
      unsubscribe();
      res.end();
    };
    const forget = streams.add(session, close);
    request.raw.on('close', close);
  });
}
