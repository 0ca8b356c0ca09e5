// The vocabulary of refusals: every error code the forum can give, with the toast title and the
// sentence a person reads. The device (both modes), the server and the tests import it, so each
// sentence exists once. Codes on the wire are snake_case; a device that meets a code it does not
// know (a newer server) shows the server's sentence under a generic title.
//
// A code never changes meaning once shipped: devices of older builds switch on it.

import { ACCEPTED_FILES_WORDS, IMAGE_PIXELS_WORDS, MAX_FILE_WORDS, QUOTA_WORDS } from './attachment-limits';
import { formatDayTime } from './dates';

export interface ErrorEntry {
  /** The toast title. */
  title: string;
  /** The sentence a person reads (a route or rule may give a more precise one for `invalid`). */
  message: string;
  /** The HTTP status the server answers with; absent for errors only the device raises. */
  status?: number;
}

export const ERRORS = {
  // Input and requests.
  invalid: { status: 400, title: 'Error', message: 'This is not valid.' },
  bad_request: { status: 400, title: 'Error', message: 'The request is not valid.' },
  headers_too_large: { status: 431, title: 'Too large', message: 'The request’s headers are too large.' },
  request_timeout: { status: 408, title: 'Error', message: 'The request took too long to arrive.' },
  bad_host: {
    status: 421,
    title: 'Wrong address',
    message: 'This server does not answer at this address. Its operator can add the address to PUBLIC_ORIGIN.',
  },
  bad_json: { status: 400, title: 'Error', message: 'The request body is not valid JSON.' },
  too_deep: { status: 400, title: 'Error', message: 'The request body is nested too deeply.' },
  empty_body: { status: 400, title: 'Error', message: 'The request body is empty: send JSON.' },
  bad_content_type: { status: 415, title: 'Error', message: 'Send the request body as JSON (content-type: application/json).' },
  too_large: { status: 413, title: 'Too large', message: 'The request is too large.' },
  no_route: { status: 404, title: 'Error', message: 'There is nothing at this address.' },
  bad_origin: { status: 403, title: 'Not allowed', message: 'This request did not come from this site, so it was refused.' },
  protocol_mismatch: {
    status: 409,
    title: 'Update needed',
    message: 'Insight Exchange was updated. Reload to get the new version; nothing you did on this device is lost.',
  },

  // Accounts and sessions.
  bad_credentials: { status: 401, title: 'Error', message: 'Incorrect email or password.' },
  account_exists: { status: 409, title: 'Error', message: 'An account with this email already exists. Sign in instead.' },
  name_taken: { status: 409, title: 'Name taken', message: 'Another member already uses this name. Choose another one.' },
  rate_limited: { status: 429, title: 'Too many attempts', message: 'Too many attempts. Try again in a few minutes.' },
  too_many_streams: {
    status: 429,
    title: 'Too many windows',
    message: 'Too many live updates are open for this session. Close some tabs or windows, then try again.',
  },
  server_busy: {
    status: 429,
    title: 'Server busy',
    message: 'The server has too many live connections right now. Please try again in a moment.',
  },
  signed_out: { status: 401, title: 'Please sign in again', message: 'Please sign in again.' },
  not_signed_in: { title: 'Error', message: 'Please sign in to continue.' },
  offline_sign_in: { title: "You're offline", message: "You're offline. Signing in on a new device needs a connection." },
  offline_sign_up: { title: "You're offline", message: "You're offline. Creating an account needs a connection." },

  // Signing in with your organisation, two-step verification and passkeys (issue 63).
  offline_sso: { title: "You're offline", message: "You're offline. Signing in with your organisation needs a connection." },
  offline_passkey: { title: "You're offline", message: "You're offline. Signing in with a passkey needs a connection." },
  sso_not_configured: { status: 404, title: 'Not available', message: 'Single sign-on is not set up on this forum.' },
  sso_failed: {
    status: 400,
    title: 'Sign-in failed',
    message: 'Signing in with your organisation did not work. Start again from the sign-in page.',
  },
  sso_unavailable: {
    status: 503,
    title: 'Provider unavailable',
    message: 'Your organisation’s sign-in service cannot be reached right now. Try again in a few minutes.',
  },
  sso_email_unverified: {
    status: 403,
    title: 'Email not verified',
    message: 'Your organisation’s account has no verified email address, so it cannot sign in here. Ask your administrator.',
  },
  sso_only: {
    status: 403,
    title: 'Use your organisation',
    message: 'Members of this forum sign in with their organisation’s account.',
  },
  sso_link_needed: {
    status: 409,
    title: 'Sign in with your password once',
    message: 'An account with this email already exists. Sign in with its password once to link it to your organisation’s account.',
  },
  sso_removed: { status: 401, title: 'Signed out', message: 'Your organisation’s account no longer has access, so you were signed out.' },
  two_step_expired: {
    status: 401,
    title: 'Sign in again',
    message: 'Too much time passed since you entered your password. Sign in again.',
  },
  bad_code: {
    status: 401,
    title: 'Wrong code',
    message: 'That code is not right, or it was already used. Enter the code your authenticator app shows now.',
  },
  bad_recovery_code: { status: 401, title: 'Wrong code', message: 'That recovery code is not right, or it was already used.' },
  two_step_on: { status: 409, title: 'Already on', message: 'Two-step verification is already on for this account.' },
  two_step_off: { status: 409, title: 'Not on', message: 'Two-step verification is not on for this account.' },
  two_step_required: {
    status: 403,
    title: 'Two-step verification needed',
    message: 'Staff accounts must turn on two-step verification first: open Profile, then “Two-step verification”.',
  },
  passkey_failed: {
    status: 400,
    title: 'Passkey not accepted',
    message: 'This passkey was not accepted. Try again, or sign in another way.',
  },
  passkey_unknown: {
    status: 401,
    title: 'Passkey not recognised',
    message: 'This passkey does not belong to an account here. Sign in another way, then add it on Profile.',
  },
  passkey_not_found: { status: 404, title: 'Passkey removed', message: 'This passkey is no longer on your account.' },
  passkey_exists: { status: 409, title: 'Already added', message: 'This passkey is already added to an account.' },
  passkey_cancelled: { title: 'Cancelled', message: 'The passkey request was cancelled or timed out.' },
  // The device's own: a right password of an account with two-step verification asks for its code
  // (not an error: the login form's code step), and such an account cannot sign in offline.
  two_step_needed: { title: 'Two-step verification', message: 'Enter the code your authenticator app shows.' },
  offline_two_step: {
    title: "You're offline",
    message: "You're offline. This account uses two-step verification, so signing in needs a connection.",
  },

  // Operations on posts. `forbidden` is what a member's review got before `admins_only` (protocol 4);
  // the server still sends it to devices of protocols 1 to 3 (server/db/ops/answers.ts, legacyCode).
  forbidden: { status: 403, title: 'Not allowed', message: 'Only an admin can review posts.' },
  not_found: { status: 404, title: 'Post removed', message: 'This post no longer exists.' },
  not_approved: { status: 409, title: 'Not approved yet', message: 'Only approved posts can be liked.' },
  already_reviewed: { status: 409, title: 'Already reviewed', message: 'This post was already reviewed' },
  not_your_post: {
    status: 403,
    title: 'Not allowed',
    message: 'Only its author can edit a post, and only its author or an admin can delete it.',
  },
  edit_conflict: {
    status: 409,
    title: 'Not saved',
    message:
      'An admin reviewed this post while you were editing it, so your changes were not saved. They are kept: choose Edit to see them and save again.',
  },
  conflict: { status: 409, title: 'Change not saved', message: 'This operation id was already used by another account.' },

  // Operations on replies.
  replies_closed: { status: 409, title: 'Not approved yet', message: 'Replies open once a post is approved.' },
  reply_not_found: { status: 404, title: 'Reply removed', message: 'This reply no longer exists.' },
  not_your_reply: {
    status: 403,
    title: 'Not allowed',
    message: 'Only its author can edit a reply, and only its author or an admin can delete it.',
  },
  // What a member's hide or restore of a reply got before `admins_only`: for devices of protocols 1 to 3 only.
  moderators_only: { status: 403, title: 'Not allowed', message: 'Only an admin can hide or restore a reply.' },
  reply_hidden: { status: 409, title: 'Hidden by a moderator', message: 'A moderator hid this reply, so it can no longer be edited.' },

  // Moderation and notifications; every "admins only" refusal of protocol 4 and later.
  admins_only: { status: 403, title: 'Not allowed', message: 'Only an admin can do this.' },
  already_flagged: { status: 409, title: 'Already flagged', message: 'You already flagged this. An admin will look at it.' },
  cannot_flag_own: { status: 403, title: 'Not allowed', message: 'You cannot flag your own post or reply.' },
  not_on_forum: { status: 409, title: 'Already hidden', message: 'This post is not on the forum any more.' },
  // Version 5 (saved posts, member pages).
  member_not_found: { status: 404, title: 'Member not found', message: 'There is no member at this address.' },
  not_saveable: { status: 409, title: 'Not on the forum', message: 'Only a post on the forum can be saved.' },
  // Version 6 (safe with strangers). A member stopped by the staff, and the limits of a forum open to strangers.
  suspended: {
    status: 403,
    title: 'Account suspended',
    message: 'Your account is suspended. Nothing you did on this device is lost; you can sign in again once the suspension ends.',
  },
  account_closed: { status: 403, title: 'Account closed', message: 'This account was closed by the forum’s staff.' },
  silenced: {
    status: 403,
    title: 'Account silenced',
    message:
      'The forum’s staff silenced your account: you can read, but not post, reply, edit, like or flag. What you wrote is kept as a draft.',
  },
  staff_member: { status: 403, title: 'Not allowed', message: 'A staff account cannot be suspended, silenced or deleted.' },
  // Issue 61 (messages).
  conversation_not_found: { status: 404, title: 'Conversation not found', message: 'This conversation is not available to you.' },
  messages_closed: { status: 403, title: 'Messages not open yet', message: 'Messages open once one of your posts or replies is approved.' },
  recipient_not_found: {
    status: 404,
    title: 'Recipient not found',
    message: 'One of the recipients is not a member here. Choose recipients among the members the To field suggests.',
  },
  slow_down: { status: 429, title: 'Slow down', message: 'You are doing that too often. Try again in a moment.' },
  // Accounts people keep (issue 41): a device signed out by a new password or from another device, and email links.
  password_changed: {
    status: 401,
    title: 'Signed out',
    message:
      'Your password was changed, so this device was signed out. Sign in with the new password; nothing you did on this device is lost.',
  },
  session_revoked: {
    status: 401,
    title: 'Signed out',
    message: 'This device was signed out from another device. Sign in again; nothing you did on this device is lost.',
  },
  account_deleted: {
    status: 401,
    title: 'Account deleted',
    message: 'This account was deleted, so this device was signed out. What was kept here for it stays only on this device.',
  },
  link_expired: { status: 410, title: 'Link expired', message: 'This link has expired or was already used. Ask for a new one.' },
  wrong_password: { status: 403, title: 'Error', message: 'Your current password is not right.' },
  admin_account: { status: 403, title: 'Not allowed', message: 'The admin account cannot be deleted or reset this way.' },
  session_not_found: { status: 404, title: 'Error', message: 'This device is not signed in any more.' },
  // Issue 63: an account made by the organisation's sign-in has no password to confirm with.
  sign_in_again: {
    status: 403,
    title: 'Sign in again first',
    message:
      'Your account has no password, so deleting it needs a fresh sign-in: sign in again with your organisation (or a passkey), then delete it within 10 minutes.',
  },
  email_from_organisation: {
    status: 403,
    title: 'Not changed here',
    message: 'Your email is the one your organisation’s sign-in gave this account, so it cannot be changed here.',
  },
  email_taken: {
    status: 409,
    title: 'Email taken',
    message: 'Another account uses this email now, so your address was not changed. Choose another one on your Profile.',
  },
  check_email: {
    title: 'Check your email',
    message: 'Check your email to finish creating your account: we sent a link to this address.',
  },
  // Evidence (issue 42): polls.
  no_poll: { status: 404, title: 'No poll', message: 'This post has no poll.' },
  poll_not_open: { status: 409, title: 'Poll not open', message: 'A poll takes votes once its post is on the forum.' },
  poll_closed: { status: 409, title: 'Poll closed', message: 'This poll is closed: it takes no more votes.' },
  // Evidence (issue 42): attachments.
  unsupported_file: {
    status: 415,
    title: 'File type not accepted',
    message: `Attach ${ACCEPTED_FILES_WORDS} only.`,
  },
  attachment_missing: {
    status: 409,
    title: 'Attachment missing',
    message: 'An attached file did not reach the server. Attach it again and send.',
  },
  attachment_too_large: { status: 413, title: 'File too large', message: `A file can be at most ${MAX_FILE_WORDS}.` },
  attachment_quota: {
    status: 413,
    title: 'Attachment space used up',
    message: `You have used all the space for your attachments (${QUOTA_WORDS}). Files already on the forum stay.`,
  },
  // Issue 59: connections a client cannot hold, and an operation more than its limit could ever allow.
  too_many_connections: {
    status: 429,
    title: 'Too many connections',
    message: 'Too many connections are open from your address. Close some tabs or windows, then try again in a moment.',
  },
  over_limit: {
    status: 403,
    title: 'Over the limit',
    message: 'This is more than the forum’s limits allow at once, so it was not done.',
  },
  // Issue 59: an image the server would have to decode past its pixel limit (server/attachments/clean-image.ts).
  image_too_large: {
    status: 413,
    title: 'Image too large',
    message: `An image can be at most ${IMAGE_PIXELS_WORDS} (for example 8,000 × 5,000 pixels). Resize it and attach it again.`,
  },

  // The server or the network.
  database_unavailable: {
    status: 503,
    title: 'Server unavailable',
    message: 'The database cannot be reached right now. Please try again in a moment.',
  },
  server_error: { status: 500, title: 'Server error', message: 'Something went wrong on the server. Please try again.' },
  offline: { title: "You're offline", message: 'The server could not be reached.' },
  bad_answer: { title: 'Sync error', message: 'The server sent an answer this version of the app cannot read.' },
  no_results: { title: 'Sync error', message: 'The server did not answer the changes sent.' },
  too_late_to_undo: { title: 'Already done', message: 'It is too late to undo this: the change was already sent.' },
  set_aside: {
    title: 'Change set aside',
    message: 'The server keeps failing on one change, so it was set aside on this device; your other changes keep syncing.',
  },

  // This device's storage.
  storage_full: {
    title: 'Storage is full',
    message:
      'This device has no room left for Insight Exchange. Free up space (or export a backup and clear old data), then try again. Nothing was saved.',
  },
  storage_unavailable: {
    title: 'Storage unavailable',
    message: 'This browser is not letting Insight Exchange store data (private browsing or disabled site data).',
  },
  database_outdated: { title: 'Update needed', message: 'Insight Exchange was updated in another tab. Reload to continue.' },
  sync_not_started: { title: 'Sync error', message: 'Syncing could not start on this page. Retry reloads it.' },

  // A fault of this build that no rule names (issue 59): said plainly, never as a JavaScript message.
  unexpected: { title: 'Something went wrong', message: 'Something went wrong on this device. Please try again.' },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

/** The codes the server may send (each has an HTTP status); the wire's `code` is one of them. */
export const WIRE_ERROR_CODES = (Object.keys(ERRORS) as ErrorCode[]).filter((code) => 'status' in ERRORS[code]) as [
  WireErrorCode,
  ...WireErrorCode[],
];
export type WireErrorCode = {
  [Code in ErrorCode]: (typeof ERRORS)[Code] extends { status: number } ? Code : never;
}[ErrorCode];

/** The title a toast shows for a code without a more precise one: "Error". */
export const GENERIC_TITLE = 'Error';

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

/** The toast title of `code` (a code this build does not know gets the generic title). */
export function titleOf(code: string): string {
  return isErrorCode(code) ? ERRORS[code].title : GENERIC_TITLE;
}

/** The sentence of `code` (a code this build does not know: `fallback`, the server's sentence). */
export function messageOf(code: string, fallback = ''): string {
  return isErrorCode(code) ? ERRORS[code].message : fallback;
}

/** A sign-up's link asks for the password chosen at Create Account (issue 59: a link someone else asked for makes no account). */
export const SIGN_UP_PASSWORD_NOTE = 'Enter the password you chose when you created your account.';
/** wrong_password's sentence for a sign-up's link. */
export const SIGN_UP_PASSWORD_WRONG_MESSAGE = 'This is not the password you chose when you created your account. Try again.';

/** "Too many attempts. Try again in N minutes." with N rounded up, at least 1 (rate_limited's exact sentence). */
export function tooManyAttemptsMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The 404 of an address under /api that has no route (no_route's sentence, naming it). */
export function noRouteMessage(path: string): string {
  return `There is nothing at ${path}.`;
}

/** A wait as a person reads it, rounded up: "1 second", "45 seconds", "3 minutes", "2 hours". */
export function waitText(waitMs: number): string {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const [count, unit] =
    seconds < 60 ? [seconds, 'second'] : seconds < 3600 ? [Math.ceil(seconds / 60), 'minute'] : [Math.ceil(seconds / 3600), 'hour'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** slow_down's sentence with the wait: "You are doing that too often. Try again in 45 seconds." */
export function slowDownMessage(waitMs: number): string {
  return `You are doing that too often. Try again in ${waitText(waitMs)}.`;
}

/**
 * suspended's sentence with when it ends and why: in the reader's time zone on a device; the
 * server, which knows no reader's zone, writes it in UTC and says so (`timeZone` 'UTC').
 */
export function suspensionMessage(until: number, reason: string | null, timeZone?: 'UTC'): string {
  const when = `${formatDayTime(until, timeZone)}${timeZone ? ' UTC' : ''}`;
  return `Your account is suspended until ${when}.${reason ? ` Reason: ${reason}` : ''}`;
}

/** silenced's banner: the vocabulary's sentence, then until when (the reader's zone; or until the staff lift it) and why. */
export function silenceMessage(until: number | null, reason: string | null): string {
  const end = until === null ? 'It lasts until the staff lift it.' : `It ends ${formatDayTime(until)}.`;
  return `${ERRORS.silenced.message} ${end}${reason ? ` Reason: ${reason}` : ''}`;
}

/** Log out with changes not sent yet (issue 59, PRODUCT.md): the dialog's title. */
export const UNSENT_CHANGES_TITLE = 'Changes not sent yet';

/** The dialog's sentence: "2 changes are not sent yet: they will be sent the next time you sign in here." */
export function unsentChangesMessage(count: number): string {
  return count === 1
    ? '1 change is not sent yet: it will be sent the next time you sign in here.'
    : `${count} changes are not sent yet: they will be sent the next time you sign in here.`;
}

/** Added to a sign-out's notice when the member's New Post draft was kept (only then: issue 59). */
export const DRAFT_KEPT = 'A post you were writing is kept as a draft.';
