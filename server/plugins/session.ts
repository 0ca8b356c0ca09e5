// The session cookie: `ie_session`, HttpOnly, SameSite=Strict, Path=/, Secure under https. The
// token in it is looked up by its hash (db/accounts.ts); a missing or dead one is 401 signed_out.
// Member routes are registered inside `memberRoutes`, whose one hook checks the session first.
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context';
import { createSession, deleteSession, SESSION_DAYS, sessionUser, touchSession, type UserRow } from '../db/members/accounts';
import { suspensionMessage } from '../../src/shared/errors';
import type { Sql } from '../db/storage/adapter';
import { HttpError, refuse, signedOut } from '../lib/http-error';

export const SESSION_COOKIE = 'ie_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member (set by memberRoutes' hook; null outside member routes). */
    member: UserRow | null;
  }
}

export async function setupCookies(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('member', null);
}

/**
 * Registers `routes` (each given `ctx`) in a scope whose one hook lets only a signed-in member
 * through (401 signed_out otherwise), runs the context's member checks (the organisation's provider
 * asked again once a period) and puts the member on `request.member`.
 */
export async function memberRoutes(app: FastifyInstance, ctx: ServerContext, routes: FastifyPluginAsync<ServerContext>[]): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      // The session's lookup waits through a database away for a moment, as the push it lets in does.
      request.member = await ctx.patiently(request)(() => requireUser(ctx.db, request));
      for (const check of ctx.memberChecks ?? []) await check(ctx, request, request.member);
    });
    for (const route of routes) await scope.register(route, ctx);
  });
}

/** The member of a request inside memberRoutes. */
export function memberOf(request: FastifyRequest): UserRow {
  if (!request.member) throw signedOut();
  return request.member;
}

/**
 * The signed-in user of this request; throws 401 signed_out otherwise, 403 suspended (with when it
 * ends and why) while the member is suspended, and 403 account_closed once the staff closed it. A
 * session that a suspension ended stays ended after it: signed out, and gone. A session ended by a new
 * password or from another device answers 401 password_changed / session_revoked, so the device can
 * say why (and a member the organisation's provider no longer knows: sso_removed).
 */
/** When this instance last wrote a session's "last seen" (so most requests write nothing). */
const touched = new Map<string, number>();

export async function requireUser(sql: Sql, request: FastifyRequest): Promise<UserRow> {
  const token = request.cookies[SESSION_COOKIE];
  const user = token ? await sessionUser(sql, token) : undefined;
  if (!user) throw signedOut();
  // The member deleted their account (it is closed too): told so, not "closed by the staff".
  if (user.endedReason === 'deleted') throw refuse('account_deleted');
  const stopped = stoppedBy(user);
  if (stopped) throw stopped;
  if (user.endedReason) {
    // A new password or a sign-out from another device: told why on every request (the live
    // stream's reconnection and the next sync both hear it) until the row expires.
    if (user.endedReason === 'password_changed') throw refuse('password_changed');
    if (user.endedReason === 'revoked') throw refuse('session_revoked');
    if (user.endedReason === 'sso_removed') throw refuse('sso_removed');
    await deleteSession(sql, token!);
    throw signedOut();
  }
  // "Last seen" on Profile's devices: written at most once a minute per session.
  const now = Date.now();
  if ((touched.get(token!) ?? 0) < now - 60_000) {
    if (touched.size >= 10_000) touched.clear();
    touched.set(token!, now);
    await touchSession(sql, token!, now).catch(() => undefined);
  }
  return user;
}

/** Why the staff keep `user` out right now (a closed account, a suspension that has not ended), or undefined. */
export function stoppedBy(user: UserRow, now = Date.now()): Error | undefined {
  if (user.closedAt) return refuse('account_closed');
  if (user.suspendedUntil && user.suspendedUntil > now) {
    const [until, reason] = [user.suspendedUntil, user.suspendReason ?? null];
    return new HttpError('suspended', suspensionMessage(until, reason, 'UTC'), {}, { until, reason });
  }
  return undefined;
}

/** Sets the session cookie (Secure when the request came over https). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: request.protocol === 'https',
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
}

/** Clears the session cookie with the same attributes it was set with. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/', secure: request.protocol === 'https' });
}

/**
 * Signs this browser in to `userId` (Sign In, a sign-up's link, the organisation's provider, a passkey).
 * The session it carried until now is replaced, so it ends on the server too (a member who signed out
 * while offline never left a live session behind).
 */
export async function openSession(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await deleteSession(ctx.db, previous);
  setSessionCookie(request, reply, await createSession(ctx.db, userId, request.headers['user-agent'] ?? ''));
}
