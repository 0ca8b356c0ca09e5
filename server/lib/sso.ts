// Single sign-on's decisions (issue 63), between the provider's checked answer (lib/oidc.ts) and the
// forum's accounts: who a provider account signs in as, a first sign-in's account, the link of an
// existing password account (only after that member signs in with their password once, from the
// browser that came back from the provider), the groups claim, and the recheck that signs out every
// device of a member the provider no longer knows.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { nameFromEmail } from '../../src/shared/post-rules';
import { validateMemberName } from '../../src/shared/validation';
import type { ServerContext } from '../context';
import { applyClaimedGroups } from '../db/groups/claimed-groups';
import { endSessions, NameTaken, nameTaken, type UserRow } from '../db/members/accounts';
import { CHALLENGE_LIFETIME_MS, peekChallenge, putChallenge, takeChallenge } from '../db/members/challenges';
import { claimRecheck, createProviderMember, linkSubject, recheckLater, storeRefreshToken, userBySubject } from '../db/members/sso';
import { writeStaffEntry } from '../db/staff/staff-log';
import { stoppedBy } from '../plugins/session';
import { finishFirstFactor } from './first-factor';
import { refuse } from './http-error';
import { ProviderUnavailable, relyingParty, type ProviderClaims } from './oidc';

/** The cookie that binds a browser to its sign-in at the provider (the 'oidc' challenge). */
export const OIDC_COOKIE = 'ie_oidc';
/** The cookie of a first sign-in awaiting its name, or of a link awaiting the password ('oidc-pending'). */
export const OIDC_PENDING_COOKIE = 'ie_oidc_pending';

/** What an 'oidc-pending' challenge holds. */
export interface PendingSso {
  kind: 'name' | 'link';
  subject: string;
  email: string;
  /** A first sign-in: the name offered (the provider's, with a number when it is taken). */
  suggestedName?: string;
  refreshToken: string | null;
  groups?: string[];
  returnTo: string;
}

/** When the provider could not answer a recheck, the next request tries again after this long. */
const RECHECK_RETRY_MS = 5 * 60_000;

/** Sets `name` for the paths given, HttpOnly, Secure under https. */
export function setFlowCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  options: { path: string; sameSite: 'lax' | 'strict'; maxAgeMs: number },
): void {
  reply.setCookie(name, value, {
    httpOnly: true,
    sameSite: options.sameSite,
    path: options.path,
    secure: request.protocol === 'https',
    maxAge: Math.round(options.maxAgeMs / 1000),
  });
}

export function clearPendingCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(OIDC_PENDING_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/api', secure: request.protocol === 'https' });
}

/** Where /login goes after a sign-in done here: `/login?sso=done`, with the app path to return to. */
export const doneUrl = (returnTo: string) =>
  returnTo === '/' ? '/login?sso=done' : `/login?sso=done&return=${encodeURIComponent(returnTo)}`;

/** The claim's groups for `user`, when OIDC_GROUPS_CLAIM is set (a failure is logged, never a failed sign-in). */
export async function applyGroups(ctx: ServerContext, request: FastifyRequest, user: UserRow, groups: string[] | undefined): Promise<void> {
  if (!groups) return;
  await applyClaimedGroups(ctx.db, user, groups).catch((error: unknown) =>
    request.log.error(`the groups claim was not applied: ${(error as Error).message}`),
  );
}

/** A name no member has yet: `name`, else `name 2`, `name 3`… (undefined when none of the first hundred is free or valid). */
export async function freeName(ctx: ServerContext, name: string): Promise<string | undefined> {
  for (let n = 1; n <= 100; n++) {
    const candidate = n === 1 ? name : `${name} ${n}`;
    if (validateMemberName(candidate, 'user')) continue;
    if (!(await nameTaken(ctx.db, candidate))) return candidate;
  }
  return undefined;
}

/**
 * The provider vouched for `claims`: signs the browser in as the member linked to them, or makes a
 * first sign-in's account, or holds a link or a name for later. Returns the app path to redirect to.
 */
export async function providerSignIn(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  claims: ProviderClaims,
  refreshToken: string | null,
  returnTo: string,
): Promise<string> {
  const linked = await userBySubject(ctx.db, claims.subject);
  if (linked) {
    const stopped = stoppedBy(linked);
    if (stopped) throw stopped;
    await linkSubject(ctx.db, linked.id, claims.subject, refreshToken ?? null);
    await applyGroups(ctx, request, linked, claims.groups);
    const done = await finishFirstFactor(ctx, request, reply, linked, { method: 'sso', returnTo: doneUrl(returnTo) });
    return done === 'two-step' ? '/login?step=code' : doneUrl(returnTo);
  }
  if (!claims.email || !claims.emailVerified) throw refuse('sso_email_unverified');
  const pending: PendingSso = {
    kind: 'name',
    subject: claims.subject,
    email: claims.email,
    refreshToken,
    ...(claims.groups ? { groups: claims.groups } : {}),
    returnTo,
  };
  const [existing] = await ctx.db.query<{ id: unknown; oidc_subject: string | null; password_hash: string }>(
    'SELECT id, oidc_subject, password_hash FROM users WHERE email = $1',
    [claims.email],
  );
  if (existing) {
    // Linked to another account of the provider (or another provider): nothing to link.
    if (existing.oidc_subject) throw refuse('sso_failed');
    const id = await putChallenge(ctx.db, 'oidc-pending', { ...pending, kind: 'link' }, Number(existing.id));
    setFlowCookie(request, reply, OIDC_PENDING_COOKIE, id, {
      path: '/api',
      sameSite: 'strict',
      maxAgeMs: CHALLENGE_LIFETIME_MS['oidc-pending'],
    });
    return '/login?sso=link';
  }
  const wanted = claims.name ?? nameFromEmail(claims.email);
  const free = validateMemberName(wanted, 'user') ? undefined : await freeName(ctx, wanted);
  if (free === wanted) {
    const user = await createMember(ctx, pending, wanted);
    if (user) {
      await applyGroups(ctx, request, user, claims.groups);
      await finishFirstFactor(ctx, request, reply, user, { method: 'sso' });
      return doneUrl(returnTo);
    }
  }
  // The provider's name is taken (or not one a member may have): the member accepts the one offered or changes it.
  const suggestedName = free ?? (await freeName(ctx, nameFromEmail(claims.email))) ?? '';
  const id = await putChallenge(ctx.db, 'oidc-pending', { ...pending, suggestedName });
  setFlowCookie(request, reply, OIDC_PENDING_COOKIE, id, {
    path: '/api',
    sameSite: 'strict',
    maxAgeMs: CHALLENGE_LIFETIME_MS['oidc-pending'],
  });
  return '/login?sso=name';
}

/** Creates a first sign-in's member named `name`; undefined when the email or the name was taken meanwhile. */
export async function createMember(ctx: ServerContext, pending: PendingSso, name: string): Promise<UserRow | undefined> {
  return ctx.db
    .transaction((tx) =>
      createProviderMember(tx, { email: pending.email, name, subject: pending.subject, refreshToken: pending.refreshToken }),
    )
    .catch((error: unknown) => {
      if (error instanceof NameTaken || (error as { constraint?: string }).constraint === 'users_oidc_subject') return undefined;
      throw error;
    });
}

/**
 * After a password sign-in opened a session for `user` (POST /api/session, or the two-step code that
 * followed the password): the provider account this browser came back with is linked to them, when
 * it was held for their account. The staff log records it for a staff account. True when linked.
 */
export async function linkPendingSso(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, user: UserRow): Promise<boolean> {
  const id = request.cookies[OIDC_PENDING_COOKIE];
  if (!id) return false;
  const held = await peekChallenge<PendingSso>(ctx.db, 'oidc-pending', id);
  if (!held || held.data.kind !== 'link' || held.userId !== user.id) return false;
  const taken = await takeChallenge<PendingSso>(ctx.db, 'oidc-pending', id);
  clearPendingCookie(request, reply);
  if (!taken) return false;
  const linked = await ctx.db
    .transaction(async (tx) => {
      await linkSubject(tx, user.id, taken.data.subject, taken.data.refreshToken);
      if (user.role === 'admin') await writeStaffEntry(tx, { actorId: user.id, action: 'linkSso', memberId: user.id, title: user.name });
      return true;
    })
    .catch((error: unknown) => {
      // Linked to another member meanwhile (the subject is unique): nothing to do.
      if ((error as { constraint?: string }).constraint === 'users_oidc_subject') return false;
      throw error;
    });
  if (linked) await applyGroups(ctx, request, user, taken.data.groups);
  return linked;
}

/** OIDC_ONLY: may this password sign-in go ahead? The admin's always; a member's only to link the provider account this browser holds for them. */
export async function passwordAllowed(ctx: ServerContext, request: FastifyRequest, email: string): Promise<boolean> {
  if (!ctx.oidc?.only || email === ctx.adminEmail) return true;
  const held = await peekChallenge<PendingSso>(ctx.db, 'oidc-pending', request.cookies[OIDC_PENDING_COOKIE]);
  return held?.data.kind === 'link' && held.data.email === email;
}

/**
 * The recheck, on a member's request (plugins/session.ts): once the provider last vouched for them
 * more than OIDC_RECHECK_HOURS ago, one request (across instances: claimRecheck) asks the provider
 * with the refresh token. Refused (the account is gone or disabled): every session of the member
 * ends, told why (`sso_removed`). Unreachable: they stay signed in, and it is asked again soon.
 */
export async function recheckProvider(ctx: ServerContext, request: FastifyRequest, user: UserRow): Promise<void> {
  const settings = ctx.oidc;
  if (!settings || !user.oidcSubject?.startsWith(`${settings.issuer} `)) return;
  const now = Date.now();
  if ((user.oidcCheckedAt ?? 0) > now - settings.recheckMs) return;
  const claimed = await claimRecheck(ctx.db, user.id, settings.recheckMs, now);
  // Not due after all, or another request checks.
  if (!claimed) return;
  // The provider issued no refresh token to ask it with: the member signs in through it again, so
  // nobody stays signed in longer than OIDC_RECHECK_HOURS without the provider vouching for them.
  if (!claimed.refreshToken) {
    await endSessions(ctx.db, user.id, 'sso_removed');
    throw refuse('sso_removed');
  }
  let answer: Awaited<ReturnType<ReturnType<typeof relyingParty>['refresh']>>;
  try {
    answer = await relyingParty(settings).refresh(claimed.refreshToken);
  } catch (error) {
    // Unreachable, or an answer that failed its checks: nothing was decided about the member.
    request.log.warn(
      `the provider could not recheck a member${error instanceof ProviderUnavailable ? '' : ' (a refused answer)'}: ${(error as Error).message}`,
    );
    await recheckLater(ctx.db, user.id, settings.recheckMs, RECHECK_RETRY_MS);
    return;
  }
  if (answer === 'removed' || answer.claims.subject !== user.oidcSubject) {
    await ctx.db.query('UPDATE users SET oidc_refresh_token = NULL WHERE id = $1', [user.id]);
    await endSessions(ctx.db, user.id, 'sso_removed');
    throw refuse('sso_removed');
  }
  await storeRefreshToken(ctx.db, user.id, answer.refreshToken);
  await applyGroups(ctx, request, user, answer.claims.groups);
}
