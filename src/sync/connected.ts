// Sync on a connected device: the engine, the live stream and every trigger that runs it (a local
// write, the live stream, coming back online, focus, a sign-in). Loaded by start.ts only once the
// device is known to be connected, so a local-only device never downloads the client or zod.

import { rememberStop, type StopNotice } from '../db/members/stop-notice';
import { hasDraft } from '../db/posts/drafts';
import { onLocalChange } from '../db/storage/changes';
import { afterFirstPosts } from '../db/storage/idle';
import { releaseSetAside } from '../db/ops/outbox';
import { pendingName } from '../db/preferences/pulled';
import { onSessionChange, readStoredSession, saveSession } from '../db/members/session';
import { createApi } from './api';
import { sendPendingSignOut } from './auth';
import { SyncEngine } from './engine';
import { openLiveStream } from './live';
import { savedFilesKeeper } from './saved-files';
import { setRetryHandler } from './status';
import { DRAFT_KEPT, ERRORS } from '../shared/errors';
import type { Session } from '../db/types';

const LOCK_NAME = 'insight-exchange:sync';

function lock<T>(work: () => Promise<T>): Promise<T> {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks.request(LOCK_NAME, work) : work();
}

/** Creates the engine, wires its triggers for the life of the page and runs the first sync. */
export async function runConnected(onEngine: (engine: SyncEngine) => void): Promise<void> {
  const api = createApi((input, init) => fetch(input, init));
  const session = () => readStoredSession() ?? null;
  // The server no longer knows this session (it expired, or this device was local-only until now):
  // once the server confirms it (a sign-in may have happened meanwhile), sign out here too. Queued
  // changes stay and are sent after the member signs in again.
  // Said once (issue 59), by the login page a protected screen gives way to (a toast as well said it
  // twice), with the draft sentence only when a draft was kept.
  const endSession = async (why: StopNotice) => {
    const signedIn = readStoredSession();
    if (!signedIn) return;
    const draft = await hasDraft(signedIn.email).catch(() => false);
    if (readStoredSession()?.email !== signedIn.email) return;
    const notice = draft ? { ...why, description: `${why.description} ${DRAFT_KEPT}` } : why;
    rememberStop(notice);
    saveSession(null);
  };
  const onSignedOut = (stopped?: StopNotice) => {
    // The staff suspended or closed the account, a new password or another device ended the session:
    // signed out here at once, told why (and until when).
    if (stopped) {
      void endSession(stopped);
      return;
    }
    void api.currentUser().then(
      (user) => {
        const signedIn = readStoredSession();
        if (!signedIn || user?.email === signedIn.email) return;
        void endSession({
          title: ERRORS.signed_out.title,
          description: 'Your session on the server has ended. Sign in to keep syncing; nothing you did on this device is lost.',
        });
      },
      () => undefined,
    );
  };
  // The server's word on the role and name replaces the stored user (a role edited by hand lasts
  // only until the next sync).
  // A rename made here and not yet confirmed by a pull keeps its name: it is put back once the
  // outbox was read (the server's word is stored first, exactly as before protocol 5 and renames).
  const onConfirmed = (user: Session) => {
    if (readStoredSession()?.email !== user.email) return;
    saveSession({ email: user.email, name: user.name, role: user.role });
    void pendingName(user.email)
      .catch(() => undefined)
      .then((name) => {
        const now = readStoredSession();
        if (name !== undefined && now?.email === user.email && now.name !== name) saveSession({ ...now, name });
      });
  };
  // Change email (issue 59): the device's data already moved to the new address; the session follows.
  const onEmailChanged = (user: Session) => {
    if (readStoredSession()) saveSession(user);
  };
  // The server speaks another protocol: ask the service worker for the new build now, so that the
  // update prompt's Reload appears beside the notice that asks for it.
  const onOutdated = () =>
    void navigator.serviceWorker
      ?.getRegistration()
      .then((registration) => registration?.update())
      .catch(() => undefined);
  // The forum's first posts painted, or 600 ms (the member is elsewhere), then a quiet moment (200 ms at most).
  const yieldToScreen = () => new Promise<void>((resolve) => afterFirstPosts(600, resolve, 200));
  const engine = new SyncEngine({
    api,
    session,
    isOnline: () => navigator.onLine,
    lock,
    onSignedOut,
    onConfirmed,
    onEmailChanged,
    onOutdated,
    yieldToScreen,
  });
  onEngine(engine);
  setRetryHandler(() => void engine.retry());

  let stream: ReturnType<typeof openLiveStream> | undefined;
  const openStream = () => {
    stream?.close();
    stream =
      session() && navigator.onLine
        ? openLiveStream(
            (url) => new EventSource(url),
            (cursor) => engine.notifyServerCursor(cursor),
            // A stream the server refused may have ended with the session (a suspension): a sync finds out and says why.
            () => void engine.sync(),
          )
        : undefined;
  };
  // A sign-out made while offline reaches the server as soon as it answers.
  const endPendingSignOut = () => sendPendingSignOut(api).catch(() => undefined);
  const catchUp = () => {
    if (!stream || stream.closed()) openStream();
    void endPendingSignOut();
    void engine.retry();
  };

  const keepSaved = savedFilesKeeper(() => session()?.email);
  onLocalChange((kind) => {
    keepSaved();
    if (kind === 'synced' || kind === 'revoked') return;
    void engine.localChange();
  });
  onSessionChange(() => {
    keepSaved();
    engine.sessionChanged();
    openStream();
    void engine.retry();
  });
  window.addEventListener('online', catchUp);
  window.addEventListener('online', keepSaved);
  window.addEventListener('offline', () => {
    stream?.close();
    stream = undefined;
    void engine.sync();
  });
  window.addEventListener('focus', catchUp);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') catchUp();
  });
  openStream();
  keepSaved();
  // What the server kept failing on gets another chance on every start (a new build may mend it).
  await releaseSetAside().catch(() => undefined);
  // The catch-up starts at once; a sign-out left from offline goes alongside.
  await Promise.all([engine.sync(), endPendingSignOut()]);
}
