// Sign in, Create Account and Log out for the whole app: through the server when this device is
// connected, through this browser's own accounts (src/db/accounts) when it is local-only. The
// session stored under `insightExchangeUser` keeps its shape and never holds a password or token.

import { DataError, invalidInput, isDataError } from '../db/storage/errors';
import { readStoredSession, saveSession } from '../db/members/session';
import { validateNewPassword, validateSignIn, validateSignUp } from '../shared/account-rules';
import type * as OfflineAccounts from '../db/sync/offline-accounts';
import type { Session } from '../db/types';
import type { SessionRequest, SessionUser } from '../shared/protocol';
import type { SignedIn, SyncApi } from './api';
import type { SyncEngine } from './engine';
import { detectMode } from './mode';
import { databaseExists } from '../db/storage/database-exists';
import { readLocal } from '../db/storage/local-store';
import { POSTS_KEY } from '../db/contracts';
import { makeSession } from '../db/members/session-rules';
import { normalizeEmail } from '../shared/post-rules';
import { markFirstFrame } from '../db/storage/first-frame';
import { askFirstPageEarly, confirmSignedIn, WINDOW_FIRST_PAGE } from './confirmed';

/**
 * The offline sign-in's verifiers serve a connected device only: a local-only Sign In never loads
 * them (issue 64, item 2: 1.1 KB gzip off its way to the forum). One load per page, so what is
 * asked of them runs in the order asked (a verifier kept for later, then Log out's finishing it).
 */
let offlineAccounts: Promise<typeof OfflineAccounts> | undefined;
function offline(): Promise<typeof OfflineAccounts> {
  offlineAccounts ??= import('../db/sync/offline-accounts').catch((error: unknown) => {
    offlineAccounts = undefined;
    throw error;
  });
  return offlineAccounts;
}

// The device's sync state and its count of waiting changes are read with the data layer's code, which
// a local-only Sign In on a new browser never loads (issue 64, item 2: the forum's first frame).
const syncMeta = () => import('../db/ops/sync-meta');
const countWaiting = async (email: string) => (await import('../db/ops/outbox-waiting')).countWaiting(email);
const readCursor = async () => (await syncMeta()).readCursor();
const isSignOutPending = async () => (await syncMeta()).isSignOutPending();
const setSignOutPending = async (pending: boolean) => (await syncMeta()).setSignOutPending(pending);

/** The API client (with its schema library) loads only on a connected device. */
async function client(api: SyncApi | undefined): Promise<{ api: SyncApi; isOffline: (error: unknown) => boolean }> {
  const module = await import('./api');
  return { api: api ?? module.createApi((input, init) => fetch(input, init)), isOffline: module.isOffline };
}

/** Loads what a sign-in needs ahead of the press: on a connected device, the API client. Never fails. */
export async function prepareSignIn(): Promise<void> {
  try {
    if ((await detectMode()) === 'connected') await Promise.all([import('./api'), offline()]);
  } catch {
    // Offline, or the download failed: the press tries again.
  }
}

/** Offline: a member who signed in on this device before can come back in; anyone else needs the server. */
async function signInOffline(request: SessionRequest): Promise<Session> {
  if (request.mode === 'signup') throw new DataError('offline_sign_up');
  // Its code did not reach this device before the network went (gone offline while /login loaded it,
  // before the service worker held it): no member can be checked here, so this is a new device to them.
  const accounts = await offline().catch(() => undefined);
  if (!accounts) throw new DataError('offline_sign_in');
  const { hasVerifier, offlineSession, usesTwoStep } = accounts;
  // Two-step verification's code is checked by the server only: the password alone never signs in.
  if (await usesTwoStep(request.email)) throw new DataError('offline_two_step');
  const known = await offlineSession(request.email, request.password);
  if (known) {
    await holdOnlyWhatTheyMaySee(known);
    saveSession(known);
    return known;
  }
  if (await hasVerifier(request.email)) throw new DataError('bad_credentials');
  throw new DataError('offline_sign_in');
}

/**
 * Before the app hears of a new member, the device keeps only what they may see (the previous
 * member's private posts, notifications and flags go). Left to the first sync, a page opened at
 * once showed the previous member's pending posts to the new one, and an action taken on them
 * (an admin's Approve) was undone by the switch and never sent. Failing here never fails the
 * sign-in: the sync's own switch runs before anything is sent or pulled.
 */
async function holdOnlyWhatTheyMaySee(session: Session): Promise<void> {
  // Loaded here, not with this file: the switch's restore of queued posts brings the operations'
  // rules, which /login and the forum's first posts do not need (issue 64, item 2).
  await import('../db/sync/member-switch').then(({ switchMember }) => switchMember(session)).catch(() => undefined);
}

async function throughServer(given: SyncApi | undefined, request: SessionRequest): Promise<Session> {
  let loaded: Awaited<ReturnType<typeof client>>;
  try {
    loaded = await client(given);
  } catch {
    // The client's code could not be downloaded: this device is offline.
    return signInOffline(request);
  }
  const { api, isOffline } = loaded;
  let user: SignedIn;
  try {
    // A device that has never pulled asks the answer to carry the window's first page (issue 64).
    const firstPage = request.mode === 'signin' && api.posts && (await neverPulled()) ? WINDOW_FIRST_PAGE : undefined;
    user = await api.signIn(firstPage === undefined ? request : { ...request, firstPage });
  } catch (error) {
    // The server's refusal is thrown as it came: its code, the title that fits it (Too many
    // attempts, Server unavailable…) and the server's own sentence.
    if (isOffline(error)) return signInOffline(request);
    // The password was right and a code is asked for next (sync/two-step.ts): this device keeps no verifier for it.
    if (isDataError(error, 'two_step_needed'))
      await offline()
        .then(({ forgetVerifierForTwoStep }) => forgetVerifierForTwoStep(request.email))
        .catch(() => undefined);
    throw error;
  }
  return settleSignIn(api, user, request.password);
}

/** True when this device has never pulled (its first sync takes a window); false when that cannot be read. */
async function neverPulled(): Promise<boolean> {
  return readCursor().then(
    (cursor) => cursor === 0,
    () => false,
  );
}

/**
 * The device takes the member the server signed in (its cookie is set): what they may see, the
 * stored session, their public id, and (with the password at hand) the offline sign-in's verifier.
 */
async function settleSignIn(api: SyncApi, user: SignedIn, password?: string): Promise<Session> {
  const session: Session = { email: user.email, name: user.name, role: user.role };
  // A device that has never pulled takes a window: its first page came with the answer, or is
  // asked for now, while the device settles who is signed in. Either way the sync takes it
  // (takeFirstPage) and stores it as any page of the window (storeForumPage, its change head).
  const posts = api.posts?.bind(api);
  const carried = user.firstPage;
  if (carried) askFirstPageEarly(session.email, () => Promise.resolve(carried));
  else if (posts)
    void neverPulled().then(
      (never) => never && askFirstPageEarly(session.email, () => posts({ limit: WINDOW_FIRST_PAGE })),
      () => undefined,
    );
  await holdOnlyWhatTheyMaySee(session);
  confirmSignedIn(session);
  saveSession(session);
  // The member's public id: what they write here links to their page before the server answers.
  await (await import('../db/members/own-id')).rememberOwnMemberId(session.email, user.id).catch(() => undefined);
  // For an offline sign-in later, made once the forum's first posts are painted (its PBKDF2 stays out
  // of the first sync's way); failing to keep it never fails the sign-in. The server ended the
  // session this browser carried before, so a sign-out still waiting for it is done.
  if (password !== undefined)
    void offline()
      .then(({ rememberVerifierLater }) => rememberVerifierLater(session, password))
      .catch(() => undefined);
  void setSignOutPending(false).catch(() => undefined);
  return session;
}

/** A sign-up's emailed link made the account and signed this browser in (issue 59): the app signs in to it. */
export async function adoptSignUp(user: SessionUser, api?: SyncApi): Promise<Session> {
  return withTheme(await settleSignIn((await client(api)).api, user));
}

/** The member's theme on this device goes into the theme cookie at sign-in; failing to never fails the sign-in. */
async function withTheme(session: Session): Promise<Session> {
  await import('../db/preferences/preferences').then(({ applyStoredTheme }) => applyStoredTheme(session.email)).catch(() => undefined);
  return session;
}

/**
 * Local-only, on a browser that holds no database yet: it holds no account, so any email signs in
 * (the spec), with no theme of theirs, and without the data layer's code; their forum paints its
 * first frame (db/storage/first-frame.ts) from the posts it opens on: an older build's copy here, or
 * the sample posts. Undefined when the browser holds a database.
 */
async function signInOnNewBrowser(email: string): Promise<Session | undefined> {
  // A browser without IndexedDB holds no account either, but no forum to paint: the data layer says why.
  if (typeof indexedDB === 'undefined' || (await databaseExists())) return undefined;
  const session = makeSession(normalizeEmail(email), '');
  // An older build's posts here are the forum's first posts: read for its first frame now (their
  // codec loads only where a copy is).
  const raw = readLocal(POSTS_KEY);
  const copy = typeof raw === 'string' ? (await import('../db/mirror/frame-copy')).framePostsOfCopy(raw) : undefined;
  markFirstFrame(session.email, Date.now(), copy);
  saveSession(session);
  return session;
}

/** Signs in (connected: the server checks the password; local-only: this browser's accounts). */
export async function signIn(email: string, password: string, api?: SyncApi): Promise<Session> {
  const problem = validateSignIn(email, password);
  if (problem) throw invalidInput(problem);
  if ((await detectMode(api)) === 'local')
    return (await signInOnNewBrowser(email)) ?? withTheme(await (await import('../db/members/accounts')).signIn(email, password));
  return withTheme(await throughServer(api, { mode: 'signin', email: email.trim().toLowerCase(), password }));
}

/**
 * Creates an account: local-only, on this browser (the spec's rules), signed in at once; connected,
 * the server emails a link that makes it (a password of at least 10 characters), so this throws
 * `check_email` (the login form says "Check your email").
 */
export async function signUp(name: string, email: string, password: string, api?: SyncApi): Promise<Session> {
  const problem = validateSignUp(name, email, password);
  if (problem) throw invalidInput(problem);
  if ((await detectMode(api)) === 'local') return withTheme(await (await import('../db/members/accounts')).signUp(name, email, password));
  // The server's own rule for a new password (it also refuses a common one): said before any request.
  const weak = validateNewPassword(password);
  if (weak) throw invalidInput(weak);
  return withTheme(await throughServer(api, { mode: 'signup', email: email.trim().toLowerCase(), password, name: name.trim() }));
}

/** How long Log out waits for the changes still queued to reach the server before it names what is left. */
export const SEND_BEFORE_SIGN_OUT_MS = 5_000;

/** What Log out did: signed out, or not (yet) because `unsent` changes could not reach the server. */
export type SignOutResult = { signedOut: true } | { signedOut: false; unsent: number };

export interface SignOutOptions {
  /** "Log out anyway": what is not sent yet stays queued on this device for the member's next sign-in here. */
  force?: boolean;
  /** What sends the queue: this page's sync engine (without one, what waits is named as not sent). */
  engine?: Pick<SyncEngine, 'retry'>;
  isOnline?: () => boolean;
  waitMs?: number;
}

/**
 * Sends what `email` still has queued for the server, for at most `waitMs`; returns how many
 * changes are left unsent (offline, held over a limit, or the server too slow to answer).
 */
export async function sendBeforeSignOut(
  email: string,
  engine: Pick<SyncEngine, 'retry'> | undefined,
  isOnline: () => boolean,
  waitMs = SEND_BEFORE_SIGN_OUT_MS,
): Promise<number> {
  if ((await countWaiting(email)) === 0) return 0;
  if (engine && isOnline()) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([engine.retry().catch(() => undefined), deadline]);
    clearTimeout(timer);
  }
  return countWaiting(email);
}

/**
 * Signs out in every tab of this device, and ends the session on the server; offline, the device
 * remembers to end it there as soon as the server answers (sendPendingSignOut). On a connected
 * device what is queued is sent first, while the session still stands (issue 59): a change sent
 * after the server ended it was refused and waited for the same member's next sign-in here. What
 * cannot be sent is named (`unsent`) and nothing is signed out, unless `force` (Log out anyway).
 */
export async function signOut(api?: SyncApi, options: SignOutOptions = {}): Promise<SignOutResult> {
  const session = readStoredSession();
  if ((await detectMode(api)) === 'local') {
    saveSession(null);
    return { signedOut: true };
  }
  if (session && !options.force) {
    const isOnline = options.isOnline ?? (() => navigator.onLine);
    const unsent = await sendBeforeSignOut(session.email, options.engine, isOnline, options.waitMs);
    if (unsent > 0) return { signedOut: false, unsent };
  }
  // A verifier the sign-in left for later is made now: a member who signed in here online can sign
  // in offline after Log out, however soon they logged out.
  await offline()
    .then(({ finishWaitingVerifiers }) => finishWaitingVerifiers())
    .catch(() => undefined);
  // From here no cycle starts (there is no session), and the server's session ends after what was sent.
  saveSession(null);
  try {
    await (await client(api)).api.signOut();
  } catch {
    await setSignOutPending(true).catch(() => undefined);
  }
  return { signedOut: true };
}

/** Ends on the server a session signed out while offline; a no-op when none is waiting. */
export async function sendPendingSignOut(api: SyncApi): Promise<void> {
  if (!(await isSignOutPending())) return;
  await api.signOut();
  await setSignOutPending(false);
}
