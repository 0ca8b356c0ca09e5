// The signed-in user: stored under `insightExchangeUser` as `{ email, name, role }`, never with a
// password. Kept free of Dexie so that public pages read it synchronously without loading the
// database; a copy goes to IndexedDB (session-copy.ts) for browsers whose localStorage throws.

import { USER_KEY } from '../contracts';
import { parseSession, type RoleAuthority } from './session-rules';
import { readLocal, removeLocal, writeLocal } from '../storage/local-store';
import { clearForumSnapshot } from '../storage/forum-snapshot';
import { writeThemeCookie } from '../preferences/theme-cookie';
import { afterFirstFrame, endFirstFrame } from '../storage/first-frame';
import type { Session } from '../types';

const CHANNEL_NAME = 'insight-exchange-session';

// When localStorage cannot be used, the session of this tab lives here (and in IndexedDB).
let memorySession: Session | null = null;
let localStoreWorks = true;
// Whose word the role is: settled by the sync layer once it knows this device's mode.
let authority: RoleAuthority = 'unsettled';

/**
 * Reads the stored session synchronously. `undefined` means localStorage is unusable and the
 * IndexedDB copy has to be read (readSession does that).
 */
export function readStoredSession(): Session | null | undefined {
  const raw = readLocal(USER_KEY);
  if (raw === undefined) {
    localStoreWorks = false;
    return memorySession ?? undefined;
  }
  // The last write failed (quota): this page's own session is the one in force.
  if (!localStoreWorks) return memorySession;
  return parseSession(raw, authority);
}

/** Whose word the role is on this page (see RoleAuthority); `unsettled` until the mode is known. */
export function roleAuthority(): RoleAuthority {
  return authority;
}

/** Settles whose word the role is (the sync layer, once it knows the mode) and tells every listener. */
export function setRoleAuthority(next: RoleAuthority): void {
  if (authority === next) return;
  authority = next;
  const session = readStoredSession();
  if (session !== undefined) notify(session);
}

/** Reads the session, falling back to the IndexedDB copy when localStorage is unusable. */
export async function readSession(): Promise<Session | null> {
  const stored = readStoredSession();
  if (stored !== undefined) return stored;
  try {
    const { readSessionCopy } = await import('./session-copy');
    memorySession = await readSessionCopy(authority);
  } catch {
    memorySession = null;
  }
  return memorySession;
}

type SessionListener = (session: Session | null) => void;
const listeners = new Set<SessionListener>();
let channel: BroadcastChannel | undefined;

function notify(session: Session | null): void {
  for (const listener of listeners) listener(session);
}

function ensureChannel(): BroadcastChannel | undefined {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL_NAME);
  // Node (unit tests) would otherwise keep running for the channel's sake.
  (channel as BroadcastChannel & { unref?: () => void }).unref?.();
  channel.onmessage = (event: MessageEvent<string | null>) => {
    const session = parseSession(event.data, authority);
    // Another tab signed in or out (the only news of it where localStorage is unusable).
    clearForumSnapshot();
    if (!localStoreWorks) memorySession = session;
    notify(session);
  };
  return channel;
}

function copyToDatabase(session: Session | null): void {
  // On a new browser's way to the forum's first frame, once it is painted (its database, and the
  // data layer's code, come after it: db/storage/first-frame.ts).
  afterFirstFrame(() =>
    import('./session-copy')
      .then(({ saveSessionCopy }) => saveSessionCopy(session))
      .catch(() => {
        // The copy is a fallback only; localStorage (or memory) still holds the session.
      }),
  );
}

/**
 * Another member, or none, from now on (a sign-out, a sign-in as someone else): the system notifications
 * shown for the one before (a post's title on the screen and in the system's list) close. Loaded when used.
 */
function closeNotificationsIfAnother(before: Session | null | undefined, after: Session | null): void {
  if (before?.email === after?.email && after !== null) return;
  // On a new browser's way to the forum's first frame (none shown yet there), after it.
  afterFirstFrame(
    () =>
      void import('../storage/system-notifications')
        .then(({ closeSystemNotifications }) => closeSystemNotifications('all'))
        .catch(() => undefined),
  );
}

/** Stores (or, with null, clears) the session in every place it lives and tells every tab. */
export function saveSession(session: Session | null): void {
  closeNotificationsIfAnother(readStoredSession(), session);
  // The forum's snapshot belongs to the member who was signed in: never shown to the next one.
  clearForumSnapshot();
  memorySession = session;
  const raw = session ? JSON.stringify({ email: session.email, name: session.name, role: session.role }) : null;
  if (raw) {
    // A full localStorage: drop the old user first (so no stale user is left behind) and retry;
    // if it still fails, this page keeps the session in memory and in IndexedDB.
    let written = writeLocal(USER_KEY, raw).ok;
    if (!written) {
      removeLocal(USER_KEY);
      written = writeLocal(USER_KEY, raw).ok;
    }
    localStoreWorks = written;
  } else {
    removeLocal(USER_KEY);
    localStoreWorks = true;
    // A visitor sees the system's theme: the member's goes with them (sign-in writes it again).
    writeThemeCookie(null);
  }
  // A new browser's first frame was the member's: gone with them.
  if (!session) endFirstFrame();
  copyToDatabase(session);
  ensureChannel()?.postMessage(raw);
  notify(session);
}

/** Called for a `storage` event on the user key written by another tab or an older build. */
export function handleExternalSessionChange(newValue: string | null): Session | null {
  const session = parseSession(newValue, authority);
  // This tab's own idea of who was here: the other tab has written the new one already.
  closeNotificationsIfAnother(memorySession ?? undefined, session);
  clearForumSnapshot();
  if (!localStoreWorks) memorySession = session;
  copyToDatabase(session);
  notify(session);
  return session;
}

let listening = false;

function ensureListening(): void {
  ensureChannel();
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('storage', (event: StorageEvent) => {
    // key null means another tab cleared all of localStorage.
    if (event.key === USER_KEY) handleExternalSessionChange(event.newValue);
    else if (event.key === null) handleExternalSessionChange(readLocal(USER_KEY) ?? null);
  });
}

/**
 * Subscribes to session changes from this tab, other tabs (storage events, BroadcastChannel) and
 * older builds. Returns the unsubscribe function.
 */
export function onSessionChange(listener: SessionListener): () => void {
  listeners.add(listener);
  ensureListening();
  return () => {
    listeners.delete(listener);
  };
}
