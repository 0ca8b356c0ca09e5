// A connected device for unit tests: this test's IndexedDB, the real server (test-server.ts)
// reached through a browser-like fetch of its own, and a sync engine whose timers are collected
// instead of run (so back-off is checked without waiting).
import { markConnected } from '../../../src/db/ops/sync-meta';
import { readStoredSession } from '../../../src/db/members/session';
import { createApi, type SyncApi } from '../../../src/sync/api';
import { SyncEngine, type EngineDeps } from '../../../src/sync/engine';
import { signInAs } from '../factories';
import type { TestServer } from './test-server';

export interface Device {
  server: TestServer;
  api: SyncApi;
  engine: SyncEngine;
  timers: { callback: () => void; ms: number }[];
  online: { value: boolean };
}

/**
 * A device connected to `server`, signed in as `email` on both sides: it signed in earlier (its
 * browser holds the session cookie, the account exists as that sign-in made it). Signing in itself
 * is auth.test.ts's subject; here it would only add a scrypt hash per device.
 */
export async function connectedDevice(server: TestServer, email = 'member@example.com', deps: Partial<EngineDeps> = {}): Promise<Device> {
  await markConnected();
  const api = createApi(await server.signedInDevice(email));
  const user = await server.account(email);
  signInAs(user.email, user.name);
  const timers: Device['timers'] = [];
  const online = { value: true };
  const engine = new SyncEngine({
    api,
    session: () => readStoredSession() ?? null,
    isOnline: () => online.value,
    setTimer: (callback, ms) => timers.push({ callback, ms }),
    clearTimer: () => undefined,
    random: () => 1,
    ...deps,
  });
  return { server, api, engine, timers, online };
}
