// /api/session: sign in (an unknown email creates the account), create an account with a name,
// who am I, and sign out. The admin address exists from start-up, so it can never be claimed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tooManyAttemptsMessage } from '../../../src/shared/errors';
import { sessionRequestSchema, type SessionRequest } from '../../../src/shared/protocol';
import { nameFromEmail } from '../../../src/shared/post-rules';
import { validateName } from '../../../src/shared/validation';
import { createSession, createUser, deleteSession, findUser, upgradePasswordHash, type UserRow } from '../../db/members/accounts';
import type { ServerContext } from '../../context';
import { refuse } from '../../lib/http-error';
import { hashPassword, needsRehash, verifyPassword } from '../../lib/passwords';
import { clearSessionCookie, memberOf, SESSION_COOKIE, setSessionCookie } from '../../plugins/session';

const publicUser = ({ email, name, role }: UserRow) => ({ email, name, role });

/** The key a client's attempts count under: its address, or its /64 for IPv6 (one host's usual share). */
export function clientKey(ip: string): string {
  if (!ip.includes(':') || ip.startsWith('::ffff:')) return ip.replace(/^::ffff:/, '');
  const groups = ip.split('::')[0]!.split(':');
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** Runs `work` for `key` after the work already running for it in `checking` (a per-key queue). */
async function oneAtATime<T>(checking: Map<string, Promise<unknown>>, key: string, work: () => Promise<T>): Promise<T> {
  const before = checking.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  checking.set(key, mine);
  try {
    return await mine;
  } finally {
    if (checking.get(key) === mine) checking.delete(key);
  }
}
const badCredentials = () => refuse('bad_credentials');

/**
 * The attempt limits: every attempt counts against the client's address, and only wrong passwords
 * against the email *from that address*. A wrong password from one place never locks the owner out
 * from another (an email-wide count let anyone lock any account, the admin's included).
 */
function checkLimits(ctx: ServerContext, request: FastifyRequest, pair: string): void {
  // The pair's attempt is counted before the password is checked (and forgotten when it was
  // right), so parallel guesses are held to the limit too, not only those that came back wrong.
  const wait = Math.max(ctx.limits.perAddress.hit(clientKey(request.ip)), ctx.limits.perEmailAndAddress.hit(pair));
  if (wait > 0) {
    throw refuse('rate_limited', tooManyAttemptsMessage(wait), { 'retry-after': String(Math.ceil(wait / 1000)) });
  }
}

/** The account this request signs in to, created when the email is new (never the admin's). */
async function authenticate(ctx: ServerContext, body: SessionRequest): Promise<UserRow> {
  const known = await findUser(ctx.db, body.email);
  if (known) {
    if (body.mode === 'signup') {
      throw refuse('account_exists');
    }
    if (!(await verifyPassword(body.password, known.passwordHash))) throw badCredentials();
    // A hash from an older, cheaper cost is replaced now that the password is at hand.
    if (needsRehash(known.passwordHash)) await upgradePasswordHash(ctx.db, known.id, known.passwordHash, await hashPassword(body.password));
    return known;
  }
  if (body.email === ctx.adminEmail) throw badCredentials();
  const name = body.mode === 'signup' && body.name ? body.name : nameFromEmail(body.email);
  const created = await createUser(ctx.db, { email: body.email, name, role: 'user', passwordHash: await hashPassword(body.password) });
  // Someone created this account meanwhile: it is a known email now, with its own password.
  return created ?? authenticate(ctx, body);
}

export default async function sessionRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  // The emails whose password is being checked now, on this instance.
  const checking = new Map<string, Promise<unknown>>();
  app.post('/api/session', { bodyLimit: 64 * 1024, schema: { body: sessionRequestSchema } }, async (request, reply) => {
    const body = request.body as SessionRequest;
    // Checked before the account is looked up: the answer never tells whether the email has one.
    if (body.mode === 'signup' && !body.name) throw refuse('invalid', validateName('')!.message);
    const pair = `${body.email} ${clientKey(request.ip)}`;
    checkLimits(ctx, request, pair);
    // One check at a time per email: parallel guesses at one account wait their turn (a slow-down
    // that never blocks the owner), and each costs a full scrypt.
    const user = await oneAtATime(checking, body.email, () => authenticate(ctx, body));
    ctx.limits.perEmailAndAddress.clear(pair);
    // The session this browser carried until now is replaced, so it ends on the server too (a
    // member who signed out while offline never left a live session behind).
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await deleteSession(ctx.db, previous);
    setSessionCookie(request, reply, await createSession(ctx.db, user.id));
    return { user: publicUser(user) };
  });

  app.delete('/api/session', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSession(ctx.db, token);
    clearSessionCookie(request, reply);
    return reply.code(204).send();
  });
}

/** GET /api/session: who am I (a member route: the scope's hook has checked the session). */
export async function currentSessionRoute(app: FastifyInstance): Promise<void> {
  app.get('/api/session', async (request) => ({ user: publicUser(memberOf(request)) }));
}
