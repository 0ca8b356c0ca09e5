// Starts sync for this page, after the first paint (the app imports this module lazily): decides
// the mode and, on a connected device, loads and runs the engine (connected.ts). On a local-only
// device it does nothing more than one GET /api/health on the very first start.

import { onSessionChange, readStoredSession } from '../db/members/session';
import { readCursor } from '../db/ops/sync-meta';
import type { SyncEngine } from './engine';
import { forgetEarly, forumPagePath, sendEarly } from './early';
import { WINDOW_FIRST_PAGE } from './confirmed';
import { detectMode } from './mode';
import { setSyncStatus } from './status';

let started: Promise<void> | undefined;
let running: SyncEngine | undefined;

/** The engine of this page once sync has started on a connected device (else undefined). */
export function getRunningEngine(): SyncEngine | undefined {
  return running;
}

/**
 * The first sync's requests, sent while its code loads (./early.ts): the session's check for a
 * member signed in on this device, and on a device that has never pulled the forum's first page.
 */
export async function sendFirstRequests(fetchImpl?: typeof fetch): Promise<void> {
  const signedIn = readStoredSession();
  if (!signedIn || (typeof navigator !== 'undefined' && navigator.onLine === false)) return;
  // Asked for this member: a sign-out or another member's sign-in meanwhile makes them no one's.
  const stop = onSessionChange((now) => {
    if (now?.email === signedIn.email) return;
    forgetEarly();
    stop();
  });
  sendEarly('/api/session', fetchImpl);
  const neverPulled = (await readCursor()) === 0;
  if (neverPulled && readStoredSession()?.email === signedIn.email) sendEarly(forumPagePath({ limit: WINDOW_FIRST_PAGE }), fetchImpl);
}

async function run(): Promise<void> {
  if ((await detectMode()) === 'local') {
    setSyncStatus({ state: 'local' });
    return;
  }
  void sendFirstRequests().catch(() => undefined);
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
  started ??= run().catch((error: unknown) => {
    console.warn('Insight Exchange could not start syncing', error);
  });
  return started;
}
