// A connected device for unit tests: this test's IndexedDB, a fake server, and a sync engine
// whose timers are collected instead of run (so back-off is checked without waiting).
import { markConnected } from '../../../src/db/sync/sync-meta';
import { readStoredSession } from '../../../src/db/accounts/session';
import { createApi } from '../../../src/sync/api';
import { SyncEngine } from '../../../src/sync/engine';
import { signInAs } from '../factories';
import { FakeServer } from './fake-server';

export interface Device {
  server: FakeServer;
  engine: SyncEngine;
  timers: { callback: () => void; ms: number }[];
  online: { value: boolean };
}

/** A device connected to `server` (a new one by default), signed in as `email` on both sides. */
export async function connectedDevice(email = 'member@example.com', server = new FakeServer(), password = 'secret'): Promise<Device> {
  await markConnected();
  const api = createApi(server.device());
  const user = await api.signIn({ mode: 'signin', email, password });
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
  });
  return { server, engine, timers, online };
}
