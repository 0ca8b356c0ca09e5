// What happens once per page, after the first paint: open the database, bring in what an older
// build left under `posts`, write the sample posts on the very first start, and start the mirror.
// Later starts read, parse and hash the legacy copy only after the first page of posts is painted.

import { META_KEYS } from './contracts';
import { db } from './storage/schema';
import { toDataError } from './storage/errors';
import { afterFirstPosts } from './storage/idle';
import { importLegacyPostsAtStart, NOTHING_IMPORTED, type LegacyImportResult } from './mirror/import-start';
import { startLegacyMirror } from './mirror/scheduler';
import { seedSamplePosts } from './posts/seed';
import { startDurableStorageRequest } from './storage/storage-status';
import { isConnectedDevice } from './ops/sync-meta';
import { purgeExpiredUndoEntries } from './ops/undo-entries';

export type StartupResult = { ok: true; legacy: LegacyImportResult; seeded: boolean } | { ok: false; error: unknown };

/** How far the first start's import of the legacy copy has come. */
export interface StartupProgress {
  done: number;
  total: number;
}

/** How long a later start waits for that mark (a page with no posts list never sets it). */
export const DEFERRED_IMPORT_WAIT_MS = 3_000;

export interface StartupOptions {
  /** Resolves true on a connected device: the server has the sample posts, so none are written here. */
  connected?: () => Promise<boolean>;
  /** The moment the forum's first frame dated the sample posts from (db/storage/first-frame.ts): seeded from the same one (same ids). */
  samplesAt?: () => number | undefined;
}

/** The data layer of one page: start() once, stop() to release every timer and listener. */
export interface DataLayer {
  /** Starts once; later calls get the same result. */
  start(options?: StartupOptions): Promise<StartupResult>;
  /** Resolves as soon as screens can read (see whenDataUsable). */
  whenUsable(options?: StartupOptions): Promise<StartupResult | { ok: true }>;
  /** Subscribes to the progress of the legacy import at start (only a large copy reports any). */
  onProgress(listener: (progress: StartupProgress) => void): () => void;
  /** Stops the mirror, the storage request and any wait still pending. */
  stop(): void;
}

/** A fresh data layer; the page uses one (below), tests and a server-side import may make their own. */
export function createDataLayer(): DataLayer {
  const progressListeners = new Set<(progress: StartupProgress) => void>();
  type Run = { started?: Promise<StartupResult>; usable?: Promise<StartupResult | { ok: true }>; stops: (() => void)[]; stopped: boolean };
  let run: Run | undefined;

  const importAndSeed = async (options: StartupOptions): Promise<{ legacy: LegacyImportResult; seeded: boolean }> => {
    let legacy = NOTHING_IMPORTED;
    let seeded = false;
    try {
      legacy = await importLegacyPostsAtStart((progress) => {
        for (const listener of progressListeners) listener(progress);
      });
      const connected = (await db.meta.get(META_KEYS.seeded)) ? false : await (options.connected?.() ?? false);
      seeded = connected ? false : await seedSamplePosts(legacy.present, options.samplesAt?.() ?? Date.now());
    } catch (error) {
      console.warn('Insight Exchange could not finish importing saved posts', error);
    }
    return { legacy, seeded };
  };

  /** True once this device has its posts (sample posts written, or it syncs with a server). */
  const settledBefore = async (): Promise<boolean> => Boolean(await db.meta.get(META_KEYS.seeded)) || (await isConnectedDevice());

  const start = (options: StartupOptions = {}): Promise<StartupResult> => {
    if (run?.started) return run.started;
    const current: Run = { stops: [], stopped: false };
    const { stops } = current;
    run = current;
    current.started = (async (): Promise<StartupResult> => {
      try {
        await db.open();
      } catch (error) {
        return { ok: false, error: toDataError(error) };
      }
      // The first like or post asks for durable storage from now on, not once the deferred work below
      // has run: a like tapped before then was missed (a CI run caught it, tests/e2e/pwa.spec.ts).
      stops.push(startDurableStorageRequest());
      // Past this point the database works: a failed import or seed is reported, never fatal.
      // A later start waits for the first page of posts before reading 4 MB of legacy JSON; the
      // very first start imports at once (with progress), so the forum never opens empty.
      if (await settledBefore().catch(() => false)) {
        await new Promise<void>((resolve) => {
          const cancel = afterFirstPosts(DEFERRED_IMPORT_WAIT_MS, resolve);
          stops.push(() => {
            cancel();
            resolve();
          });
        });
      }
      if (current.stopped) return { ok: true, legacy: NOTHING_IMPORTED, seeded: false };
      const { legacy, seeded } = await importAndSeed(options);
      // What the deletions of an earlier visit kept for Undo (their window is over by now).
      await db.transaction('rw', db.meta, db.outbox, () => purgeExpiredUndoEntries()).catch(() => undefined);
      if (current.stopped) return { ok: true, legacy, seeded };
      const mirror = startLegacyMirror();
      stops.push(() => mirror.stop());
      return { ok: true, legacy, seeded };
    })();
    return current.started;
  };

  return {
    start,
    whenUsable(options = {}) {
      const everything = start(options);
      const current = run as Run;
      current.usable ??= (async () => {
        try {
          await db.open();
          if (await settledBefore()) return { ok: true } as const;
        } catch {
          // Reported by the full start-up below.
        }
        return everything;
      })();
      return current.usable;
    },
    onProgress(listener) {
      progressListeners.add(listener);
      return () => progressListeners.delete(listener);
    },
    stop() {
      if (!run) return;
      run.stopped = true;
      for (const stop of run.stops) stop();
      run = undefined;
    },
  };
}

const page = createDataLayer();

/** Starts the data layer once per page; later calls get the same result. */
export const startDataLayer = (options: StartupOptions = {}): Promise<StartupResult> => page.start(options);

/**
 * Resolves as soon as screens can read: once the database is open, unless this is the very first
 * start (then after the sample posts or the legacy import, so the forum never opens empty). The
 * rest of the start-up (legacy import, mirror) carries on behind it; live queries show its effects.
 */
export const whenDataUsable = (options: StartupOptions = {}): Promise<StartupResult | { ok: true }> => page.whenUsable(options);

/** Subscribes to the progress of the legacy import at start (only a large copy reports any). */
export const onStartupProgress = (listener: (progress: StartupProgress) => void): (() => void) => page.onProgress(listener);

export { onDatabaseOutdated } from './storage/outdated';
export { onMirrorReport, type MirrorReport } from './mirror/read';
