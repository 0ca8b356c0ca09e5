// Accounts people keep (issue 41). Without a session: POST /api/password/forgot (one answer whether
// or not the address has an account), POST /api/password/reset (a single-use link's new password),
// POST /api/email/confirm (an address's link, or a sign-up's: the account is made, and signed in) and POST /api/email/unsubscribe (RFC 8058's one-click, posted by mail
// programs: a form body or none). A member's: GET /api/account, PUT /api/account/email-pref,
// POST /api/account/confirm-email (send again), POST /api/account/password (needs the current one),
// POST /api/account/email (Change email: a link to the new address, which /api/email/confirm takes),
// GET /api/account/export (Download my data), POST /api/account/delete (Delete my account),
// (issue 63: an account made by the organisation's sign-in has no password: its email is not changed
// here, and a sign-in within ten minutes confirms its deletion), GET /api/account/devices, DELETE /api/account/devices/:id, POST /api/account/devices/sign-out-others.
// An admin's: POST /api/admin/members/:id/reset-link (copy it, or email it too).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  ADMIN_EMAIL_FIXED_MESSAGE,
  describeUserAgent,
  RECENT_SIGN_IN_MINUTES,
  type Account,
  type Device,
} from '../../../src/shared/account';
import {
  changePasswordSchema,
  emailPrefSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  tokenSchema,
  confirmEmailSchema,
  isSignUpToken,
  deleteAccountSchema,
  changeEmailSchema,
} from '../../../src/shared/account-schemas';
import { memberParamsSchema } from '../../../src/shared/protocol';
import { SIGN_UP_PASSWORD_NOTE, SIGN_UP_PASSWORD_WRONG_MESSAGE, tooManyAttemptsMessage } from '../../../src/shared/errors';
import { validateMemberName } from '../../../src/shared/validation';
import {
  createUser,
  endSessionById,
  endSessions,
  findUser,
  findUserById,
  hashToken,
  listSessions,
  NameTaken,
  nameTaken,
  setPassword,
  type UserRow,
} from '../../db/members/accounts';
import { peekSignUp, takeSignUp } from '../../db/members/signups';
import { peekToken, useToken } from '../../db/members/tokens';
import { exportMember } from '../../db/members/export';
import { deleteAccount } from '../../db/members/delete-account';
import { writeStaffEntry } from '../../db/staff/staff-log';
import type { ServerContext } from '../../context';
import type { Sql } from '../../db/storage/adapter';
import { refuse } from '../../lib/http-error';
import { newPasswordProblem } from '../../lib/password-policy';
import { hashPassword, isPasswordHash, verifyPassword } from '../../lib/passwords';
import { changeEmail, EmailTaken } from '../../db/members/change-email';
import {
  mailConfirmLink,
  mailEmailChanged,
  mailEmailChangeLink,
  mailEmailChangeAsked,
  mailPasswordChanged,
  mailResetLink,
  mailResetUrl,
  newResetLink,
} from '../../mail/account-mail';
import { memberOf, SESSION_COOKIE } from '../../plugins/session';
import { clientKey, oneAtATime, openSession, publicUser } from './session';
import { BAD_MEMBER_ID_MESSAGE } from './members';

/** Forgot password's one answer, whether or not the address has an account. */
export const RESET_SENT_MESSAGE =
  'If this email has an account, a link to reset its password is on its way. It works once, for 30 minutes.';
export const LINK_WORKS_MESSAGE = 'This link works.';
export const PASSWORD_SET_MESSAGE = 'Your new password is set, and every device was signed out. Sign in with it now.';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed. Your other devices were signed out.';
export const EMAIL_CONFIRMED_MESSAGE = 'Your email is confirmed.';
export const UNSUBSCRIBED_MESSAGE = 'You will receive no more notification emails. You can turn them on again on your Profile.';
export const ACCOUNT_DELETED_MESSAGE = 'Your account was deleted, and every device signed out.';
export const CONFIRM_SENT_MESSAGE = 'A new confirmation link is on its way.';
/** Change email's one answer, whether or not the new address has an account (issue 59). */
export const EMAIL_CHANGE_SENT_MESSAGE = 'Check your new address for a link to confirm it. Your email stays as it is until you do.';
export const EMAIL_CHANGED_MESSAGE = 'Your email is changed. Sign in with the new address from now on.';
export const ACCOUNT_CREATED_MESSAGE = 'Your email is confirmed and your account is ready. Welcome!';

/**
 * Counts an attempt from the client's address against the per-address limit (sign-in's too), and
 * under `key` against the per-pair one when given: 429 when spent.
 */
export async function limitByAddress(ctx: ServerContext, request: FastifyRequest, key?: string): Promise<void> {
  const wait = Math.max(
    await ctx.limits.perAddress.hit(clientKey(request.ip)),
    key === undefined ? 0 : await ctx.limits.perEmailAndAddress.hit(key),
  );
  if (wait > 0) throw refuse('rate_limited', tooManyAttemptsMessage(wait), { 'retry-after': String(Math.ceil(wait / 1000)) });
}

/** Whether a member may receive email other than a confirmation: their address is confirmed. */
const confirmed = (user: UserRow) => Boolean(user.emailVerifiedAt);

/**
 * Whether `user` has a password to confirm a change with (issue 63): an account made by the
 * organisation's sign-in has none (PROVIDER_ONLY_HASH), until a reset link gives it one.
 */
export const hasPassword = (user: UserRow): boolean => isPasswordHash(user.passwordHash);

/**
 * Whether this request's session was opened by a sign-in less than RECENT_SIGN_IN_MINUTES ago (by
 * the database's clock, which stamped it): the fresh confirmation an account without a password
 * gives Delete my account. Every session is opened by a sign-in (the organisation's, with its code
 * when two-step verification is on, or a passkey) and never renewed, so its age is the sign-in's.
 */
async function signedInRecently(sql: Sql, request: FastifyRequest): Promise<boolean> {
  const [row] = await sql.query<{ recent: unknown }>(
    `SELECT created_at > now() - interval '${RECENT_SIGN_IN_MINUTES} minutes' AS recent FROM sessions WHERE token_hash = $1`,
    [thisSession(request)],
  );
  return row?.recent === true;
}

export async function publicAccountRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  // The addresses whose reset email is being decided now (one at a time per address, so a newer link
  // always ends the older).
  const resetting = new Map<string, Promise<unknown>>();
  app.post('/api/password/forgot', { bodyLimit: 4 * 1024, schema: { body: forgotPasswordSchema } }, async (request, reply) => {
    const { email } = request.body as z.infer<typeof forgotPasswordSchema>;
    // OIDC_ONLY: members have no password here (every address but the admin's is told so alike).
    if (ctx.oidc?.only && email !== ctx.adminEmail) throw refuse('sso_only');
    await limitByAddress(ctx, request, `forgot ${email} ${clientKey(request.ip)}`);
    // The answer waits for neither the lookup nor the email, so it takes the same time whether or not
    // the address has an account (issue 59: 13-29 ms for a known one, 710-819 ms for an unknown one).
    void oneAtATime(resetting, email, async () => {
      const user = await findUser(ctx.db, email);
      // An account nobody can sign in to (a sample post's author) or one the staff closed gets nothing.
      if (user && user.passwordHash && !user.closedAt) await ctx.db.transaction((tx) => mailResetLink(tx, user, ctx.origin()));
    }).catch((error: unknown) => request.log.error(`the reset email was not queued: ${(error as Error).message}`));
    reply.code(202);
    return { message: RESET_SENT_MESSAGE };
  });

  // Whether a reset's or a sign-up's link still works, without using it up: its page says so on
  // opening, before a password is typed for nothing. Not counted among an address's attempts (a
  // token is 256 random bits: nothing to guess; the check is one read by its hash), as /login's
  // GET /api/auth/methods is not: an office's members opening their links spend none of them.
  app.post('/api/links/check', { bodyLimit: 1024, schema: { body: tokenSchema } }, async (request) => {
    const { token } = request.body as z.infer<typeof tokenSchema>;
    // A sign-up's token starts `signup-`; one made before the prefix is looked for among the sign-ups too.
    const live = (await peekSignUp(ctx.db, token)) ?? (isSignUpToken(token) ? undefined : await peekToken(ctx.db, token, 'reset'));
    if (!live) throw refuse('link_expired');
    return { message: LINK_WORKS_MESSAGE };
  });

  app.post('/api/password/reset', { bodyLimit: 4 * 1024, schema: { body: resetPasswordSchema } }, async (request) => {
    const { token, password } = request.body as z.infer<typeof resetPasswordSchema>;
    await limitByAddress(ctx, request, `reset ${clientKey(request.ip)}`);
    const owner = await ctx.db.transaction(async (tx) => {
      const [row] = await tx.query<{ user_id: unknown }>('SELECT user_id FROM account_tokens WHERE token_hash = $1', [hashToken(token)]);
      const user = row ? await findUserById(tx, Number(row.user_id)) : undefined;
      if (user && ctx.oidc?.only && user.role !== 'admin') throw refuse('sso_only');
      // The policy is checked before the link is used up, so a refused password leaves it working.
      if (user) {
        const weak = newPasswordProblem(password, [user.email, user.name]);
        if (weak) throw refuse('invalid', weak.message);
      }
      const used = await useToken(tx, token, 'reset');
      if (!used || !user || user.id !== used.userId || user.email !== used.email || user.closedAt) throw refuse('link_expired');
      await setPassword(tx, user.id, await hashPassword(password, clientKey(request.ip)));
      // The link came to this address, so the address is the member's.
      await tx.query('UPDATE users SET email_verified_at = coalesce(email_verified_at, $2) WHERE id = $1', [user.id, Date.now()]);
      await mailPasswordChanged(tx, user, ctx.origin());
      return user;
    });
    await ctx.limits.perEmailAndAddress.clear(`${owner.email} ${clientKey(request.ip)}`);
    return { message: PASSWORD_SET_MESSAGE };
  });

  // Three kinds of link land here: a member's address confirmation (Profile's "Send again"), a
  // Change email's, and a sign-up's (issue 59), which creates the account and signs this browser in
  // to it, only with the password chosen at Create Account: anyone can ask for a sign-up of someone
  // else's address, and its owner following that link must not make an account whose password the
  // asker knows.
  app.post('/api/email/confirm', { bodyLimit: 4 * 1024, schema: { body: confirmEmailSchema } }, async (request, reply) => {
    const { token, name, password } = request.body as z.infer<typeof confirmEmailSchema>;
    const signUp = await peekSignUp(ctx.db, token);
    // The address-wide count: a link's token is 256 random bits (nothing to guess), and an office's
    // new members each follow their own link from one address. A sign-up's password is counted as
    // Sign In's (this email from this address), so the link is no way round that limit.
    const guess = signUp && password !== undefined;
    await limitByAddress(ctx, request, guess ? `${signUp.email} ${clientKey(request.ip)}` : undefined);
    if (signUp && password === undefined) throw refuse('wrong_password', SIGN_UP_PASSWORD_NOTE);
    // Checked before the transaction (a derivation is slow); a wrong one leaves the link working.
    if (signUp && !(await verifyPassword(password!, signUp.passwordHash, clientKey(request.ip))))
      throw refuse('wrong_password', SIGN_UP_PASSWORD_WRONG_MESSAGE);
    const created = await ctx.db.transaction(async (tx) => {
      const used = await useToken(tx, token, 'confirm');
      if (used) {
        // Confirms the address the link was sent to, only while the account still has it.
        const rows = await tx.query('UPDATE users SET email_verified_at = $3 WHERE id = $1 AND email = $2 RETURNING id', [
          used.userId,
          used.email,
          Date.now(),
        ]);
        if (rows.length === 0) throw refuse('link_expired');
        return undefined;
      }
      if (await changeFromLink(tx, token, ctx.origin())) return 'changed';
      return createFromSignUp(tx, token, name);
    });
    if (created === 'changed') return { message: EMAIL_CHANGED_MESSAGE };
    if (!created) return { message: EMAIL_CONFIRMED_MESSAGE };
    // Signed in as Sign In does: this address's attempts at this email are forgotten.
    await ctx.limits.perEmailAndAddress.clear(`${created.email} ${clientKey(request.ip)}`);
    await openSession(ctx, request, reply, created.id);
    return { message: ACCOUNT_CREATED_MESSAGE, user: publicUser(created) };
  });

  // RFC 8058: mail programs POST `List-Unsubscribe=One-Click` as a form; the token is in the URL.
  // The route reads its body as text (any type), so a form, JSON or nothing all work.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));
    scope.post('/api/email/unsubscribe', { bodyLimit: 1024 }, async (request) => {
      const parsed = tokenSchema.safeParse(request.query);
      if (!parsed.success) throw refuse('link_expired');
      await limitByAddress(ctx, request, `unsubscribe ${clientKey(request.ip)}`);
      const [row] = await ctx.db.query<{ user_id: unknown }>(
        'SELECT user_id FROM account_tokens WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3',
        [hashToken(parsed.data.token), 'unsubscribe', Date.now()],
      );
      if (!row) throw refuse('link_expired');
      await ctx.db.query(`UPDATE users SET email_pref = 'never' WHERE id = $1`, [Number(row.user_id)]);
      return { message: UNSUBSCRIBED_MESSAGE };
    });
  });
}

/**
 * Creates the account a sign-up's link stands for, its address confirmed, and uses the link up (in
 * `tx`: a refusal leaves it working). The name it was given may have been taken meanwhile: then
 * `name_taken`, and the link's page asks for another (`name`).
 */
async function createFromSignUp(tx: Sql, token: string, name: string | undefined): Promise<UserRow> {
  const signUp = await takeSignUp(tx, token);
  if (!signUp) throw refuse('link_expired');
  const chosen = name ?? signUp.name;
  const wrong = validateMemberName(chosen, 'user');
  if (wrong) throw refuse('invalid', wrong.message);
  if (await nameTaken(tx, chosen)) throw refuse('name_taken');
  // Someone else's link made an account of this address first: this one is spent.
  const user = await createUser(tx, { email: signUp.email, name: chosen, role: 'user', passwordHash: signUp.passwordHash }).catch(
    (error: unknown) => {
      if (error instanceof NameTaken) throw refuse('name_taken');
      throw error;
    },
  );
  if (!user) throw refuse('link_expired');
  const now = Date.now();
  await tx.query('UPDATE users SET email_verified_at = $2 WHERE id = $1', [user.id, now]);
  return { ...user, emailVerifiedAt: now };
}

/**
 * A Change email link (issue 59): the account moves to the address the link was sent to, and the old
 * address is told. False when `token` is no such link (another kind may be). Refused: the account is
 * closed or suspended, or the address was taken meanwhile (`email_taken`; the link stays unused).
 */
async function changeFromLink(tx: Sql, token: string, origin: string): Promise<boolean> {
  const link = await peekToken(tx, token, 'email_change');
  if (!link) return false;
  const user = await findUserById(tx, link.userId);
  if (!user || user.closedAt || (user.suspendedUntil ?? 0) > Date.now()) throw refuse('link_expired');
  if (user.email === link.email) return true;
  if (await findUser(tx, link.email)) throw refuse('email_taken');
  // Used up in this transaction: of two requests with one link, only one changes the address.
  if (!(await useToken(tx, token, 'email_change'))) throw refuse('link_expired');
  await changeEmail(tx, user, link.email).catch((error: unknown) => {
    throw error instanceof EmailTaken ? refuse('email_taken') : error;
  });
  await mailEmailChanged(tx, user, link.email, origin);
  return true;
}

/** The session token hash of this request (the device it came from). */
const thisSession = (request: FastifyRequest) => hashToken(request.cookies[SESSION_COOKIE] ?? '');

export async function memberAccountRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  /** The account as Profile shows it: the address, the email setting, and how a change is confirmed. */
  const accountOf = async (request: FastifyRequest, user: UserRow, emailPref = user.emailPref ?? 'away'): Promise<Account> => ({
    email: user.email,
    emailVerified: confirmed(user),
    emailPref,
    hasPassword: hasPassword(user),
    recentSignIn: await signedInRecently(ctx.db, request),
  });

  app.get('/api/account', async (request, reply) => {
    const user = memberOf(request);
    reply.header('cache-control', 'no-store');
    return accountOf(request, user);
  });

  app.put('/api/account/email-pref', { bodyLimit: 1024, schema: { body: emailPrefSchema } }, async (request) => {
    const user = memberOf(request);
    const { emailPref } = request.body as z.infer<typeof emailPrefSchema>;
    await ctx.db.query('UPDATE users SET email_pref = $2 WHERE id = $1', [user.id, emailPref]);
    return accountOf(request, user, emailPref);
  });

  app.post('/api/account/confirm-email', async (request, reply) => {
    const user = memberOf(request);
    if (confirmed(user)) return { message: EMAIL_CONFIRMED_MESSAGE };
    // At most three links in an hour (the queue is the count, across instances).
    const [row] = await ctx.db.query<{ n: unknown }>(
      `SELECT count(*) AS n FROM mail_outbox WHERE user_id = $1 AND kind = 'confirm' AND created_at > $2`,
      [user.id, Date.now() - 60 * 60_000],
    );
    if (Number(row?.n ?? 0) >= 3)
      throw refuse('rate_limited', 'A confirmation link was sent three times this hour. Check your email, or try again later.');
    await ctx.db.transaction((tx) => mailConfirmLink(tx, user, ctx.origin()));
    reply.code(202);
    return { message: CONFIRM_SENT_MESSAGE };
  });

  app.post('/api/account/password', { bodyLimit: 4 * 1024, schema: { body: changePasswordSchema } }, async (request) => {
    const user = memberOf(request);
    const { current, password } = request.body as z.infer<typeof changePasswordSchema>;
    if (ctx.oidc?.only && user.role !== 'admin') throw refuse('sso_only');
    const pair = `${user.email} ${clientKey(request.ip)}`;
    await limitByAddress(ctx, request, pair);
    if (!(await verifyPassword(current, user.passwordHash, clientKey(request.ip)))) throw refuse('wrong_password');
    const weak = newPasswordProblem(password, [user.email, user.name]);
    if (weak) throw refuse('invalid', weak.message);
    await ctx.db.transaction(async (tx) => {
      await setPassword(tx, user.id, await hashPassword(password, clientKey(request.ip)), thisSession(request));
      if (confirmed(user)) await mailPasswordChanged(tx, user, ctx.origin());
    });
    await ctx.limits.perEmailAndAddress.clear(pair);
    return { message: PASSWORD_CHANGED_MESSAGE };
  });

  // Change email (issue 59): the password again (whoever holds an unlocked device must not take the
  // account away), then a link to the new address; nothing changes until it is used. One answer
  // whether or not the address has an account, and an address that has one is sent nothing (its
  // owner did not ask, and nobody learns from it that it has an account).
  app.post('/api/account/email', { bodyLimit: 4 * 1024, schema: { body: changeEmailSchema } }, async (request, reply) => {
    const user = memberOf(request);
    const { email, password } = request.body as z.infer<typeof changeEmailSchema>;
    const pair = `${user.email} ${clientKey(request.ip)}`;
    await limitByAddress(ctx, request, pair);
    // The server makes an admin at ADMIN_EMAIL when it finds none there: moved, the admin would have a twin.
    if (user.role === 'admin') throw refuse('admin_account', ADMIN_EMAIL_FIXED_MESSAGE);
    // Made by the organisation's sign-in (issue 63): its address is the one the provider vouched for.
    if (!hasPassword(user)) throw refuse('email_from_organisation');
    if (!(await verifyPassword(password, user.passwordHash, clientKey(request.ip)))) throw refuse('wrong_password');
    await ctx.limits.perEmailAndAddress.clear(pair);
    if (email === user.email) throw refuse('invalid', 'This is already your email.');
    await ctx.db.transaction(async (tx) => {
      if (!(await findUser(tx, email))) await mailEmailChangeLink(tx, user, email, ctx.origin());
      // The address the account has hears of it at once (whether or not the new one has an account).
      if (confirmed(user)) await mailEmailChangeAsked(tx, user, email, ctx.origin());
    });
    reply.code(202);
    return { message: EMAIL_CHANGE_SENT_MESSAGE };
  });

  app.get('/api/account/export', async (request, reply) => {
    const user = memberOf(request);
    await limitByAddress(ctx, request, `export ${user.id}`);
    const data = await ctx.db.transaction((tx) => exportMember(tx, user), { background: true });
    reply.header('cache-control', 'no-store');
    reply.header('content-disposition', `attachment; filename="insight-exchange-data-${new Date().toISOString().slice(0, 10)}.json"`);
    return data;
  });

  app.post('/api/account/delete', { bodyLimit: 4 * 1024, schema: { body: deleteAccountSchema } }, async (request) => {
    const user = memberOf(request);
    const { password, keepContent } = request.body as z.infer<typeof deleteAccountSchema>;
    const pair = `${user.email} ${clientKey(request.ip)}`;
    await limitByAddress(ctx, request, pair);
    if (user.role === 'admin') throw refuse('admin_account');
    // A password account gives its password, as before; one without (made by the organisation's
    // sign-in, issue 63) a sign-in on this browser within the last ten minutes.
    if (hasPassword(user)) {
      if (password === undefined || !(await verifyPassword(password, user.passwordHash, clientKey(request.ip))))
        throw refuse('wrong_password');
    } else if (!(await signedInRecently(ctx.db, request))) throw refuse('sign_in_again');
    await deleteAccount(ctx.db, user, keepContent);
    return { message: ACCOUNT_DELETED_MESSAGE };
  });

  app.get('/api/account/devices', async (request, reply) => {
    const user = memberOf(request);
    const mine = thisSession(request);
    const devices: Device[] = (await listSessions(ctx.db, user.id)).map((session) => ({
      id: session.id,
      ...describeUserAgent(session.userAgent),
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      current: session.tokenHash === mine,
    }));
    reply.header('cache-control', 'no-store');
    return { devices };
  });

  app.delete('/api/account/devices/:id', async (request, reply) => {
    const user = memberOf(request);
    const id = String((request.params as { id?: unknown }).id ?? '');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id) || !(await endSessionById(ctx.db, user.id, id))) throw refuse('session_not_found');
    return reply.code(204).send();
  });

  app.post('/api/account/devices/sign-out-others', async (request) => {
    const user = memberOf(request);
    const ended = await endSessions(ctx.db, user.id, 'revoked', thisSession(request));
    return { message: ended === 1 ? 'One other device was signed out.' : `${ended} other devices were signed out.` };
  });

  app.post('/api/admin/members/:id/reset-link', { bodyLimit: 1024 }, async (request) => {
    const admin = memberOf(request);
    if (admin.role !== 'admin') throw refuse('admins_only');
    const params = memberParamsSchema.safeParse(request.params);
    if (!params.success) throw refuse('invalid', BAD_MEMBER_ID_MESSAGE);
    const send = (request.body as { send?: unknown } | undefined)?.send === true;
    const [row] = await ctx.db.query<{ email: string }>('SELECT email FROM users WHERE member_id = $1', [params.data.id]);
    const member = row ? await findUser(ctx.db, row.email) : undefined;
    if (!member || !member.passwordHash || member.closedAt) throw refuse('member_not_found');
    if (member.role === 'admin') throw refuse('admin_account');
    return ctx.db.transaction(async (tx) => {
      const url = await newResetLink(tx, member, ctx.origin());
      let emailed = false;
      if (send) {
        await mailResetUrl(tx, member, url);
        emailed = true;
      }
      await writeStaffEntry(tx, {
        actorId: admin.id,
        action: emailed ? 'sendResetLink' : 'copyResetLink',
        memberId: member.id,
        title: member.name,
      });
      return { url, emailed };
    });
  });
}
