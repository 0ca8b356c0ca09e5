// Starts sync for this page, after the first paint (the app imports this module lazily): decides
// the mode and, on a connected device, loads and runs the engine (connected.ts). On a local-only
// device it does nothing more than one GET /api/health on the very first start.

import { onSessionChange, readStoredSession } from '../db/members/session';
import { readCursor } from '../db/ops/sync-meta';
import { afterFirstPosts } from '../db/storage/idle';
import type { SyncEngine } from './engine';
import { forgetEarly, forumPagePath, peekEarly, sendEarly } from './early';
import { WINDOW_FIRST_PAGE } from './confirmed';
import { detectMode } from './mode';
import { setRetryHandler, setSyncStatus } from './status';
import { messageOf } from '../shared/errors';

/** The longest the engine's code waits for the first page painted from the early answers. */
const EARLY_PAINT_WAIT_MS = 1_500;

let started: Promise<void> | undefined;
let running: SyncEngine | undefined;

/** The engine of this page once sync has started on a connected device (else undefined). */
export function getRunningEngine(): SyncEngine | undefined {
  return running;
}

/**
 * The first sync's requests, sent while its code loads (./early.ts): the session's check for a
 * member signed in on this device, and on a device that has never pulled the forum's first page,
 * which is stored from a copy of both answers before the engine has loaded (./early-page.ts).
 * Resolves once that page is stored (true) or left to the engine (false).
 */
export async function sendFirstRequests(fetchImpl?: typeof fetch): Promise<boolean> {
  const signedIn = readStoredSession();
  if (!signedIn || (typeof navigator !== 'undefined' && navigator.onLine === false)) return false;
  // Asked for this member: a sign-out or another member's sign-in meanwhile makes them no one's.
  const stop = onSessionChange((now) => {
    if (now?.email === signedIn.email) return;
    forgetEarly();
    stop();
  });
  sendEarly('/api/session', fetchImpl);
  const neverPulled = (await readCursor()) === 0;
  if (!neverPulled || readStoredSession()?.email !== signedIn.email) return false;
  // Copied only where a first page is painted (nobody takes the answer before this resolves: run()).
  const session = peekEarly('/api/session');
  const path = forumPagePath({ limit: WINDOW_FIRST_PAGE });
  sendEarly(path, fetchImpl);
  const page = peekEarly(path);
  if (!session || !page) return false;
  return import('./early-page').then(
    ({ storeEarlyPage }) => storeEarlyPage(signedIn.email, session, page),
    () => false,
  );
}

async function run(): Promise<void> {
  if ((await detectMode()) === 'local') {
    setSyncStatus({ state: 'local' });
    return;
  }
  // A first page painted from the early answers (./early-page.ts) goes first: the engine's code,
  // whose schemas zod builds as it loads (a long task on a slow device), loads once that page is
  // on screen (or the member is elsewhere: 600 ms), or after EARLY_PAINT_WAIT_MS whatever it waits for.
  const painted = sendFirstRequests().then(
    (stored) => (stored ? new Promise<void>((resolve) => afterFirstPosts(600, resolve, 100)) : undefined),
    () => undefined,
  );
  await Promise.race([painted, new Promise((resolve) => setTimeout(resolve, EARLY_PAINT_WAIT_MS))]);
  const { runConnected } = await import('./connected');
  await runConnected((engine) => {
    running = engine;
  });
}
/** True when this device is connected (asks the server on a device that never was). */
export async function isConnected(): Promise<boolean> {
  return (await detectMode()) === 'connected';
}

/** Starts sync once per page; later calls get the same promise. */
export function startSync(): Promise<void> {
  started ??= run().catch(async (error: unknown) => {
    console.warn('Insight Exchange could not start syncing', error);
    // A connected device says so (its lists would wait for a first sync that never comes), and Retry
    // reloads the page, which starts syncing again.
    if ((await detectMode().catch(() => 'local')) !== 'connected') return;
    setRetryHandler(() => location.reload());
    setSyncStatus({ state: 'error', message: messageOf('sync_not_started') });
  });
  return started;
}
