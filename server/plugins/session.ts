// The session cookie: `ie_session`, HttpOnly, SameSite=Strict, Path=/, Secure under https. The
// token in it is looked up by its hash (db/accounts.ts); a missing or dead one is 401 signed_out.
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_DAYS, sessionUser, type UserRow } from '../db/accounts';
import type { Sql } from '../db/adapter';
import { signedOut } from '../lib/http-error';

export const SESSION_COOKIE = 'ie_session';

export async function setupCookies(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
}

/** The signed-in user of this request; throws 401 signed_out otherwise. */
export async function requireUser(sql: Sql, request: FastifyRequest): Promise<UserRow> {
  const token = request.cookies[SESSION_COOKIE];
  const user = token ? await sessionUser(sql, token) : undefined;
  if (!user) throw signedOut();
  return user;
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
