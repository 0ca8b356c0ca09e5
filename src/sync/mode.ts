// Connected or local-only. The app asks its own origin for GET /api/health: a JSON answer with
// `"ok": true` means a server is there (connected); anything else (a static host and the build's
// `{ "ok": false }`, no network on a first visit) means local-only, today's product. A device that has been connected stays connected, even offline.
// The mode also settles whose word the role is: the server's when connected, else this device's rule.

import { setRoleAuthority } from '../db/members/session';
import { databaseExists } from '../db/storage/database-exists';
import { checkHealth, type HealthCheck } from './health';

export type Mode = 'connected' | 'local';

let detected: Promise<Mode> | undefined;

async function detect(api: HealthCheck): Promise<Mode> {
  // A browser without the database has met no server: the data layer's code (and the database it
  // would make) waits for what needs it (issue 64, item 2: the forum's first frame on a new browser).
  try {
    if ((await databaseExists()) && (await (await import('../db/ops/sync-meta')).isConnectedDevice())) return 'connected';
  } catch {
    // No IndexedDB: the answer of the server alone decides.
  }
  if (!(await api.health())) return 'local';
  await import('../db/ops/sync-meta').then(({ markConnected }) => markConnected()).catch(() => undefined);
  return 'connected';
}

/** The mode of this device, decided once per page; it settles the role's authority. */
export function detectMode(api: HealthCheck = { health: () => checkHealth() }): Promise<Mode> {
  detected ??= detect(api).then((mode) => {
    setRoleAuthority(mode === 'connected' ? 'server' : 'device');
    return mode;
  });
  return detected;
}

/** Forgets the decision (tests). */
export function resetMode(): void {
  detected = undefined;
  setRoleAuthority('unsettled');
}
