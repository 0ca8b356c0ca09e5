// The account requests of issue 41 (connected mode only): Forgot password, a reset link's new
// password, an emailed link's confirmation, one-click unsubscribe, and Profile's password, devices
// and email setting. Errors are the app's usual ones (`offline`, or the server's code and sentence).
import { z } from 'zod';
import type { Account, Device, EmailPref } from '../shared/account';
import { accountSchema, confirmedSchema, devicesSchema, doneSchema, resetLinkSchema } from '../shared/account-schemas';
import { createApi, type SyncApi } from './api';
import { isDataError } from '../db/storage/errors';

const defaultApi = (): SyncApi => createApi((input, init) => fetch(input, init));

function sender(api: SyncApi): NonNullable<SyncApi['send']> {
  if (!api.send) throw new Error('This client cannot send account requests.');
  return api.send.bind(api);
}

const message = async (answer: Promise<{ message: string }>) => (await answer).message;

/** Forgot password: the one answer, whether or not the address has an account. */
export const requestPasswordReset = (email: string, api = defaultApi()) =>
  message(sender(api)('POST', '/api/password/forgot', { email: email.trim().toLowerCase() }, doneSchema));

/**
 * Whether a reset's or a sign-up's link still works (nothing is used up): false when it expired or
 * was used; any other failure (offline, the server away) is thrown, and the page shows its form.
 */
export async function linkWorks(token: string, api = defaultApi()): Promise<boolean> {
  try {
    await sender(api)('POST', '/api/links/check', { token }, doneSchema);
    return true;
  } catch (error) {
    // Expired or used, or not a link's token at all (a copy cut short): either way it does not work.
    if (isDataError(error, 'link_expired') || isDataError(error, 'invalid')) return false;
    throw error;
  }
}

/** The emailed link's new password (every session of the member ends). */
export const resetPassword = (token: string, password: string, api = defaultApi()) =>
  message(sender(api)('POST', '/api/password/reset', { token, password }, doneSchema));

/**
 * An emailed confirmation link: an address confirmed, or (a sign-up's link, with the `password`
 * chosen at Create Account) the account made and this browser signed in to it, which the app then
 * takes; `name` when the sign-up's was taken meanwhile.
 */
export async function confirmEmail(token: string, more: { name?: string; password?: string } = {}, api = defaultApi()): Promise<string> {
  const answer = await sender(api)('POST', '/api/email/confirm', { token, ...more }, confirmedSchema);
  if (answer.user) await (await import('./auth')).adoptSignUp(answer.user, api);
  return answer.message;
}

export const unsubscribe = (token: string, api = defaultApi()) =>
  message(sender(api)('POST', `/api/email/unsubscribe?token=${encodeURIComponent(token)}`, {}, doneSchema));

export const readAccount = (api = defaultApi()): Promise<Account> => sender(api)('GET', '/api/account', undefined, accountSchema);

export const setEmailPref = (emailPref: EmailPref, api = defaultApi()): Promise<Account> =>
  sender(api)('PUT', '/api/account/email-pref', { emailPref }, accountSchema);

export const resendConfirmation = (api = defaultApi()) => message(sender(api)('POST', '/api/account/confirm-email', {}, doneSchema));

export const changePassword = (current: string, password: string, api = defaultApi()) =>
  message(sender(api)('POST', '/api/account/password', { current, password }, doneSchema));

/** Change email (issue 59): a link goes to the new address; nothing changes until it is used. */
export const changeEmail = (email: string, password: string, api = defaultApi()) =>
  message(sender(api)('POST', '/api/account/email', { email: email.trim().toLowerCase(), password }, doneSchema));

export const readDevices = async (api = defaultApi()): Promise<Device[]> =>
  (await sender(api)('GET', '/api/account/devices', undefined, devicesSchema)).devices;

export const signOutDevice = (id: string, api = defaultApi()): Promise<void> =>
  sender(api)('DELETE', `/api/account/devices/${encodeURIComponent(id)}`, undefined, null);

export const signOutOtherDevices = (api = defaultApi()) =>
  message(sender(api)('POST', '/api/account/devices/sign-out-others', {}, doneSchema));

/** Admins: a member's reset link (copied, or emailed too). */
export const memberResetLink = (memberId: string, send: boolean, api = defaultApi()) =>
  sender(api)('POST', `/api/admin/members/${encodeURIComponent(memberId)}/reset-link`, { send }, resetLinkSchema);

/** Download my data: everything the server holds about the member, as a JSON file's text. */
export async function myDataFile(api = defaultApi()): Promise<Blob> {
  const data = await sender(api)('GET', '/api/account/export', undefined, z.record(z.string(), z.unknown()));
  return new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
}

/**
 * Delete my account (password again; undefined for an account without one, issue 63: a recent sign-in
 * confirms it); `keepContent`: what they wrote stays as "Deleted member".
 */
export const deleteMyAccount = (password: string | undefined, keepContent: boolean, api = defaultApi()) =>
  message(sender(api)('POST', '/api/account/delete', password === undefined ? { keepContent } : { password, keepContent }, doneSchema));
