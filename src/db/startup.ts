// What happens once per page, after the first paint: open the database, bring in what an older
// build left under `posts`, write the sample posts on the very first start, and start the mirror.

import { db } from './schema';
import { toDataError } from './errors';
import { importLegacyPosts, startLegacyMirror, type LegacyImportResult } from './legacy-mirror';
import { seedSamplePosts } from './seed';
import { startDurableStorageRequest } from './storage-status';

export type StartupResult =
  | { ok: true; legacy: LegacyImportResult; seeded: boolean }
  | { ok: false; error: unknown };

let started: Promise<StartupResult> | undefined;

/** Starts the data layer once per page; later calls get the same result. */
export function startDataLayer(): Promise<StartupResult> {
  started ??= (async (): Promise<StartupResult> => {
    try {
      await db.open();
      const legacy = await importLegacyPosts();
      const seeded = await seedSamplePosts(legacy.present);
      startLegacyMirror();
      startDurableStorageRequest();
      return { ok: true, legacy, seeded };
    } catch (error) {
      return { ok: false, error: toDataError(error) };
    }
  })();
  return started;
}

/** Subscribes to "a newer version of the app upgraded the database in another tab". */
export function onDatabaseOutdated(listener: () => void): () => void {
  if (db.outdated) listener();
  return db.onOutdated(listener);
}

export { onMirrorReport, type MirrorReport } from './legacy-mirror';
