// GET /api/changes (pull): the changes after a cursor that this member may see, in pages, in the
// protocol version the request speaks (a version-1 device gets posts only). Each page counts under
// the member's pages_per_minute, as GET /api/posts does (429 slow_down with Retry-After past it): a
// loop of pulls from the start would copy the forum (the app's own pulls are paced: sync/engine.ts).
//
// With REPLICA_URL the page is read from the replica when it has replayed at least to the cursor the
// device sends, otherwise from the primary (db/sync/replica.ts; the `x-insight-read-from` header).
// A database away for a moment makes the pull wait (lib/reachable.ts), as a push does. Every page of
// a member with two-step verification on says `twoStep: true` (issue 63: their devices' offline
// password verifiers go).
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { pullQuerySchema } from '../../../src/shared/protocol';
import { pullChanges } from '../../db/sync/changes';
import { readFromCursor } from '../../db/sync/replica';
import type { ServerContext } from '../../context';
import { memberOf } from '../../plugins/session';
import { takeForRequest } from '../../lib/limits';

export default async function pullRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/changes', { schema: { querystring: pullQuerySchema } }, async (request, reply) => {
    const { after, limit, postsAfter } = request.query as z.infer<typeof pullQuerySchema>;
    const member = memberOf(request);
    // A read: tried again while the database is away for a moment (lib/reachable.ts), as a push is.
    const patiently = ctx.patiently(request);
    const limits = await patiently(() => ctx.memberLimits.current());
    await patiently(() => takeForRequest(ctx.db, limits, 'pages_per_minute', member));
    // A page is long, unhurried work: a like or a sign-in waiting for the embedded engine goes first.
    const page = await patiently(() =>
      readFromCursor(ctx.db, after, request, reply, (source) =>
        pullChanges(source === ctx.db ? ctx.db.background : source, member, after, limit, request.protocolVersion, postsAfter),
      ),
    );
    // Two-step verification on (issue 63), read with the session on this request: a device that keeps
    // an offline password verifier for the member forgets it (the password alone must not sign in there).
    return member.totpEnabledAt ? { ...page, twoStep: true as const } : page;
  });
}
