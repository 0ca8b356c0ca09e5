// /api/session: sign in (an existing account and its password: never a new account), create an
// account with a name (every address gets the same "check your email" answer, without a session:
// the emailed link creates the account, routes/api/account.ts), who am I, and sign out. The admin
// address exists from start-up, so it can never be claimed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tooManyAttemptsMessage } from '../../../src/shared/errors';
import { sessionRequestSchema, type SessionRequest } from '../../../src/shared/protocol';
import { validateMemberName } from '../../../src/shared/validation';
import { deleteSession, findUser, nameTaken, upgradePasswordHash, type UserRow } from '../../db/members/accounts';
import type { ServerContext } from '../../context';
import { finishFirstFactor } from '../../lib/first-factor';
import { linkPendingSso, passwordAllowed } from '../../lib/sso';
import { refuse } from '../../lib/http-error';
import { newPasswordProblem } from '../../lib/password-policy';
import { hashPassword, isPasswordHash, needsRehash, NO_ONES_HASH, verifyPassword } from '../../lib/passwords';
import { takeForRequest } from '../../lib/limits';
import { mailFinishSignUp, mailSignUpAttempt } from '../../mail/account-mail';
import { clearSessionCookie, memberOf, SESSION_COOKIE, stoppedBy } from '../../plugins/session';
import { readForumPage } from '../../db/window/pages';

/** The member as a session answer names them: the User, and their public id. */
export const publicUser = ({ email, name, role, memberId }: UserRow) => ({ email, name, role, id: memberId });

/** The key a client's attempts count under: its address, or its /64 for IPv6 (one host's usual share). */
export function clientKey(ip: string): string {
  if (!ip.includes(':') || ip.startsWith('::ffff:')) return ip.replace(/^::ffff:/, '');
  const groups = ip.split('::')[0]!.split(':');
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** Runs `work` for `key` after the work already running for it in `checking` (a per-key queue). */
export async function oneAtATime<T>(checking: Map<string, Promise<unknown>>, key: string, work: () => Promise<T>): Promise<T> {
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
 * from another (an email-wide count let anyone lock any account, the admin's included). Every
 * sign-in method counts here (a passkey whose account is known counts against its email too);
 * `pair` is `${email} ${clientKey}`, absent when no account is named.
 */
export async function checkLimits(ctx: ServerContext, request: FastifyRequest, pair?: string): Promise<void> {
  // The pair's attempt is counted before the password is checked (and forgotten when it was
  // right), so parallel guesses are held to the limit too, not only those that came back wrong.
  const wait = Math.max(
    await ctx.limits.perAddress.hit(clientKey(request.ip)),
    pair === undefined ? 0 : await ctx.limits.perEmailAndAddress.hit(pair),
  );
  if (wait > 0) {
    throw refuse('rate_limited', tooManyAttemptsMessage(wait), { 'retry-after': String(Math.ceil(wait / 1000)) });
  }
}

/**
 * The account this request signs in to. Sign In needs an account and its password: an unknown email
 * is checked against no one's hash, so it costs what a wrong password costs and answers the same.
 * Create Account never signs in (issue 59): every address gets "check your email", after the same
 * work, and no session. A new address gets the link that creates the account once it is used
 * (mail/account-mail.ts, mailFinishSignUp); an address that has an account gets an email saying so,
 * with a sign-in and a reset link (at most once an hour). The password passes the policy
 * (lib/password-policy.ts) and the name is free before anything is sent: a name is public, so
 * refusing it says nothing of the address (taken meanwhile, the link's page asks for another).
 * Only then does the attempt take one of the client address's sign-ups (`signups_per_hour`).
 */
async function authenticate(ctx: ServerContext, body: SessionRequest, client: string): Promise<UserRow | 'checkEmail'> {
  if (body.mode === 'signin') {
    const known = await findUser(ctx.db, body.email);
    // An author with no account (a sample post's) has no hash: checked against no one's, at the same cost.
    const usable = known && isPasswordHash(known.passwordHash) ? known.passwordHash : NO_ONES_HASH;
    const right = await verifyPassword(body.password, usable, client);
    if (!known || !right) throw badCredentials();
    // The right password of a member the staff stopped: told why (and until when), never signed in.
    const stopped = stoppedBy(known);
    if (stopped) throw stopped;
    // A hash from an older, cheaper cost is replaced now that the password is at hand.
    if (needsRehash(known.passwordHash))
      await upgradePasswordHash(ctx.db, known.id, known.passwordHash, await hashPassword(body.password, client));
    return known;
  }
  const name = body.name!;
  const weak = newPasswordProblem(body.password, [body.email, name]);
  if (weak) throw refuse('invalid', weak.message);
  if (await nameTaken(ctx.db, name)) throw refuse('name_taken');
  // New accounts from one client address (issue 59: five in ten seconds, each with its 50 likes).
  // Taken once the request is valid, so a typo costs none; and for every address, known or new, so
  // the answer and the work stay alike.
  await takeForRequest(ctx.db, await ctx.memberLimits.current(), 'signups_per_hour', { id: 0, role: 'user', key: `address:${client}` });
  // The hash is made for every address, so a known one answers in the time a new one takes.
  const passwordHash = await hashPassword(body.password, client);
  const known = await findUser(ctx.db, body.email);
  await ctx.db.transaction(async (tx) => {
    if (!known) await mailFinishSignUp(tx, { email: body.email, name, passwordHash }, ctx.origin());
    // An account nobody can sign in to (a sample post's author) or one the staff closed is told nothing.
    else if (known.passwordHash && !known.closedAt) await mailSignUpAttempt(tx, known, ctx.origin());
  });
  return 'checkEmail';
}

/**
 * The window's first page for a device that asked Sign In's answer to carry it (issue 64, item 5):
 * what GET /api/posts?limit= answers, through the same reading (readForumPage: the newest approved
 * posts this member may see, the pull's rule) and the same pages_per_minute. The sign-in never
 * fails for it: over the limit, or the read failing, the answer leaves it out and the device asks.
 */
async function carriedFirstPage(ctx: ServerContext, request: FastifyRequest, member: UserRow, limit: number) {
  try {
    await takeForRequest(ctx.db, await ctx.memberLimits.current(), 'pages_per_minute', member);
    return await readForumPage(ctx.db.background, member, { part: 'newest', limit });
  } catch (error) {
    request.log.warn({ err: error }, 'the first page was left out of the sign-in answer');
    return undefined;
  }
}

// Opening a session lives with the session cookie (plugins/session.ts), where every sign-in method finds it.
export { openSession } from '../../plugins/session';

export default async function sessionRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  // The emails whose password is being checked now, on this instance.
  const checking = new Map<string, Promise<unknown>>();
  app.post('/api/session', { bodyLimit: 64 * 1024, schema: { body: sessionRequestSchema } }, async (request, reply) => {
    const body = request.body as SessionRequest;
    // Checked before the account is looked up: the answer never tells whether the email has one.
    if (body.mode === 'signup') {
      const wrong = validateMemberName(body.name ?? '', 'user');
      if (wrong) throw refuse('invalid', wrong.message);
    }
    // OIDC_ONLY: members sign in through the provider (a password only to link its account, once).
    if (body.mode === 'signup' ? ctx.oidc?.only : !(await passwordAllowed(ctx, request, body.email))) throw refuse('sso_only');
    const pair = `${body.email} ${clientKey(request.ip)}`;
    await checkLimits(ctx, request, pair);
    // One check at a time per email: parallel guesses at one account wait their turn (a slow-down
    // that never blocks the owner), and each costs a full scrypt.
    const user = await oneAtATime(checking, body.email, () => authenticate(ctx, body, clientKey(request.ip)));
    if (user === 'checkEmail') return { checkEmail: true };
    // Sign In alone from here: the attempts of this email from this address are forgotten.
    await ctx.limits.perEmailAndAddress.clear(pair);
    // With two-step verification on, the password alone signs nobody in: a code is asked for next.
    if ((await finishFirstFactor(ctx, request, reply, user, { method: 'password' })) === 'two-step') return { twoStep: true };
    // Back from the provider with an account of this email: the password links it now.
    const ssoLinked = await linkPendingSso(ctx, request, reply, user);
    // A device that never pulled: the first page comes with the answer (no second round trip).
    const firstPage = body.firstPage === undefined ? undefined : await carriedFirstPage(ctx, request, user, body.firstPage);
    return { user: publicUser(user), ...(ssoLinked ? { ssoLinked } : {}), ...(firstPage ? { firstPage } : {}) };
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
