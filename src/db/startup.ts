// What happens once per page, after the first paint: open the database, bring in what an older
// build left under `posts`, write the sample posts on the very first start, and start the mirror.

import { META_KEYS } from './contracts';
import { db } from './core/schema';
import { toDataError } from './core/errors';
import { importLegacyPosts, startLegacyMirror, type LegacyImportResult } from './mirror/legacy-mirror';
import { seedSamplePosts } from './posts/seed';
import { startDurableStorageRequest } from './core/storage-status';
import { isConnectedDevice } from './sync/sync-meta';

export type StartupResult =
  | { ok: true; legacy: LegacyImportResult; seeded: boolean }
  | { ok: false; error: unknown };

/** How far the first start's import of the legacy copy has come. */
export interface StartupProgress {
  done: number;
  total: number;
}

export interface StartupOptions {
  /** Resolves true on a connected device: the server has the sample posts, so none are written here. */
  connected?: () => Promise<boolean>;
}

let started: Promise<StartupResult> | undefined;
const progressListeners = new Set<(progress: StartupProgress) => void>();

/** Subscribes to the progress of the legacy import at start (only a large copy reports any). */
export function onStartupProgress(listener: (progress: StartupProgress) => void): () => void {
  progressListeners.add(listener);
  return () => progressListeners.delete(listener);
}
let usable: Promise<StartupResult | { ok: true }> | undefined;

/** Starts the data layer once per page; later calls get the same result. */
export function startDataLayer(options: StartupOptions = {}): Promise<StartupResult> {
  started ??= (async (): Promise<StartupResult> => {
    try {
      await db.open();
    } catch (error) {
      return { ok: false, error: toDataError(error) };
    }
    // Past this point the database works: a failed import or seed is reported, never fatal.
    let legacy: LegacyImportResult = { present: false, corrupt: false, added: 0, updated: 0, skipped: 0 };
    let seeded = false;
    try {
      legacy = await importLegacyPosts((progress) => {
        for (const listener of progressListeners) listener(progress);
      });
      const connected = (await db.meta.get(META_KEYS.seeded)) ? false : await (options.connected?.() ?? false);
      seeded = connected ? false : await seedSamplePosts(legacy.present);
    } catch (error) {
      console.warn('Insight Exchange could not finish importing saved posts', error);
    }
    startLegacyMirror();
    startDurableStorageRequest();
    return { ok: true, legacy, seeded };
  })();
  return started;
}

/**
 * Resolves as soon as screens can read: once the database is open, unless this is the very first
 * start (then after the sample posts or the legacy import, so the forum never opens empty). The
 * rest of the start-up (legacy import, mirror) carries on behind it; live queries show its effects.
 */
export function whenDataUsable(options: StartupOptions = {}): Promise<StartupResult | { ok: true }> {
  usable ??= (async () => {
    const everything = startDataLayer(options);
    try {
      await db.open();
      if ((await db.meta.get(META_KEYS.seeded)) || (await isConnectedDevice())) return { ok: true } as const;
    } catch {
      // Reported by the full start-up below.
    }
    return everything;
  })();
  return usable;
}

/** Subscribes to "a newer version of the app upgraded the database in another tab". */
export function onDatabaseOutdated(listener: () => void): () => void {
  if (db.outdated) listener();
  return db.onOutdated(listener);
}

export { onMirrorReport, type MirrorReport } from './mirror/legacy-mirror';
