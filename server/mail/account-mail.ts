// The account emails as the routes send them: each queued (mail/outbox.ts) in the caller's
// transaction, with its link built from the server's public origin. A mail-bomb is bounded per
// account: a sign-up attempt on a known address is told at most once an hour, a reset link at most
// three times in 30 minutes, whatever the number of instances (the queue is the count).
import type { Sql } from '../db/storage/adapter';
import type { UserRow } from '../db/members/accounts';
import { issueToken } from '../db/members/tokens';
import { RESET_LINK_MINUTES } from '../../src/shared/account';
import { enqueueMail, type MailKind } from './outbox';
import { holdSignUp, type PendingSignUp } from '../db/members/signups';
import {
  changeEmail,
  confirmEmail,
  emailChangeAsked,
  emailChanged,
  finishSignUp,
  passwordChanged,
  resetPassword,
  signUpAttempt,
} from './templates';

const HOUR = 60 * 60_000;

/** How many `kind` emails `userId` was sent (or has queued) since `since`. */
async function sentSince(sql: Sql, userId: number, kind: MailKind, since: number): Promise<number> {
  const [row] = await sql.query<{ n: unknown }>(
    'SELECT count(*) AS n FROM mail_outbox WHERE user_id = $1 AND kind = $2 AND created_at > $3',
    [userId, kind, since],
  );
  return Number(row?.n ?? 0);
}

/** The reset link of a new reset token (the admin's "Copy reset link" shows it too). */
export async function newResetLink(tx: Sql, user: UserRow, origin: string): Promise<string> {
  return `${origin}/reset-password?token=${await issueToken(tx, user.id, 'reset', user.email)}`;
}

/** Forgot password: a single-use link for 30 minutes (at most three in 30 minutes; more are dropped quietly). */
export async function mailResetLink(tx: Sql, user: UserRow, origin: string): Promise<boolean> {
  if ((await sentSince(tx, user.id, 'reset', Date.now() - RESET_LINK_MINUTES * 60_000)) >= 3) return false;
  await mailResetUrl(tx, user, await newResetLink(tx, user, origin));
  return true;
}

/** Emails the reset link `url` (Forgot password, or the admin's "Email reset link"). */
export async function mailResetUrl(tx: Sql, user: UserRow, url: string): Promise<void> {
  await enqueueMail(tx, { kind: 'reset', to: user.email, userId: user.id, content: resetPassword(user.name, url, RESET_LINK_MINUTES) });
}

/** Create Account (or "Send again" on Profile): the link that confirms the address. */
export async function mailConfirmLink(tx: Sql, user: UserRow, origin: string): Promise<void> {
  const token = await issueToken(tx, user.id, 'confirm', user.email);
  await enqueueMail(tx, {
    kind: 'confirm',
    to: user.email,
    userId: user.id,
    content: confirmEmail(user.name, `${origin}/confirm-email?token=${token}`),
  });
}

/** Create Account with an address that has an account: its owner is told (at most once an hour). */
export async function mailSignUpAttempt(tx: Sql, user: UserRow, origin: string): Promise<void> {
  if ((await sentSince(tx, user.id, 'signupAttempt', Date.now() - HOUR)) > 0) return;
  await enqueueMail(tx, {
    kind: 'signupAttempt',
    to: user.email,
    userId: user.id,
    content: signUpAttempt(user.name, `${origin}/login`, `${origin}/reset-password`),
  });
}

/** The password was changed: the member hears of it at the address the account has. */
export async function mailPasswordChanged(tx: Sql, user: UserRow, origin: string): Promise<void> {
  await enqueueMail(tx, {
    kind: 'passwordChanged',
    to: user.email,
    userId: user.id,
    content: passwordChanged(user.name, `${origin}/reset-password`),
  });
}

/**
 * Create Account with an address that has no account: the sign-up is held (db/members/signups.ts)
 * and its link emailed. At most three such emails to one address an hour (more are dropped
 * quietly: the answer is the same), so nobody can fill a stranger's inbox.
 */
export async function mailFinishSignUp(tx: Sql, signUp: PendingSignUp, origin: string): Promise<void> {
  const [row] = await tx.query<{ n: unknown }>(
    `SELECT count(*) AS n FROM mail_outbox WHERE to_email = $1 AND kind = 'signup' AND created_at > $2`,
    [signUp.email, Date.now() - HOUR],
  );
  if (Number(row?.n ?? 0) >= 3) return;
  const token = await holdSignUp(tx, signUp);
  await enqueueMail(tx, {
    kind: 'signup',
    to: signUp.email,
    userId: null,
    content: finishSignUp(signUp.name, `${origin}/confirm-email?token=${token}`),
  });
}

/**
 * Change email (issue 59): the link that moves the account to `newEmail`, sent there. At most three
 * an hour per account; more are dropped quietly (the answer is the same), as Create Account's are.
 */
export async function mailEmailChangeLink(tx: Sql, user: UserRow, newEmail: string, origin: string): Promise<void> {
  if ((await sentSince(tx, user.id, 'emailChange', Date.now() - HOUR)) >= 3) return;
  const token = await issueToken(tx, user.id, 'email_change', newEmail);
  await enqueueMail(tx, {
    kind: 'emailChange',
    to: newEmail,
    userId: user.id,
    content: changeEmail(user.name, `${origin}/confirm-email?token=${token}`),
  });
}

/**
 * Change email was asked for (`user` as it is): the address the account has is told at once, so a
 * thief who knows the password cannot move the account quietly; changing the password cancels it
 * (db/members/accounts.ts setPassword). Under the same three-an-hour cap as the link.
 */
export async function mailEmailChangeAsked(tx: Sql, user: UserRow, newEmail: string, origin: string): Promise<void> {
  if ((await sentSince(tx, user.id, 'emailChangeAsked', Date.now() - HOUR)) >= 3) return;
  await enqueueMail(tx, {
    kind: 'emailChangeAsked',
    to: user.email,
    userId: user.id,
    content: emailChangeAsked(user.name, maskEmail(newEmail), `${origin}/reset-password`),
  });
}

/** n***@example.com: the old address learns where the account went without the whole address. */
export const maskEmail = (email: string) => `${email.slice(0, 1)}***${email.slice(email.lastIndexOf('@'))}`;

/** The address was changed: the old one is told (`user` as it was), with the new one masked. */
export async function mailEmailChanged(tx: Sql, user: UserRow, newEmail: string, origin: string): Promise<void> {
  await enqueueMail(tx, {
    kind: 'emailChanged',
    to: user.email,
    userId: user.id,
    content: emailChanged(user.name, maskEmail(newEmail), `${origin}/reset-password`),
  });
}
