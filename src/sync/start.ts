// Starts sync for this page, after the first paint (the app imports this module lazily): decides
// the mode, then runs the engine on every trigger (a local write, the live stream, coming back
// online, focus, a sign-in) until the page closes. On a local-only device it does nothing.

import { onLocalChange } from '../db/changes';
import { onSessionChange, readStoredSession, saveSession } from '../db/session';
import { createApi } from './api';
import { SyncEngine } from './engine';
import { openLiveStream } from './live';
import { detectMode } from './mode';
import { announce, setRetryHandler, setSyncStatus } from './status';

const LOCK_NAME = 'insight-exchange:sync';

let started: Promise<void> | undefined;
let running: SyncEngine | undefined;

/** The engine of this page once sync has started on a connected device (else undefined). */
export function getRunningEngine(): SyncEngine | undefined {
  return running;
}

function lock<T>(work: () => Promise<T>): Promise<T> {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks.request(LOCK_NAME, work) : work();
}

async function run(): Promise<void> {
  const api = createApi((input, init) => fetch(input, init));
  if ((await detectMode(api)) === 'local') {
    setSyncStatus({ state: 'local' });
    return;
  }
  const session = () => readStoredSession() ?? null;
  // The server no longer knows this session (it expired, or this device was local-only until now):
  // once the server confirms it (a sign-in may have happened meanwhile), sign out here too. Queued
  // changes stay and are sent after the member signs in again.
  const onSignedOut = () => {
    void api.currentUser().then((user) => {
      const signedIn = readStoredSession();
      if (!signedIn || user?.email === signedIn.email) return;
      saveSession(null);
      announce({ title: 'Please sign in again', description: 'Your session on the server has ended. Sign in to keep syncing; nothing you did on this device is lost.' });
    }, () => undefined);
  };
  const engine = new SyncEngine({ api, session, isOnline: () => navigator.onLine, lock, onSignedOut });
  running = engine;
  setRetryHandler(() => void engine.retry());

  let stream: ReturnType<typeof openLiveStream> | undefined;
  const openStream = () => {
    stream?.close();
    stream = session() && navigator.onLine ? openLiveStream((url) => new EventSource(url), (cursor) => engine.notifyServerCursor(cursor)) : undefined;
  };
  const catchUp = () => {
    if (!stream || stream.closed()) openStream();
    void engine.retry();
  };

  onLocalChange((kind) => {
    if (kind === 'synced') return;
    void engine.refreshWaiting();
    void engine.sync();
  });
  onSessionChange(() => {
    engine.sessionChanged();
    openStream();
    void engine.retry();
  });
  window.addEventListener('online', catchUp);
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
  await engine.sync();
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
