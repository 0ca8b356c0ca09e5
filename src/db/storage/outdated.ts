// The one "outdated" flag: true once a newer build upgraded (or deleted) the database from another
// tab. schema.ts sets it on `versionchange`; errors.ts reads it to name a closed-database error;
// the UI subscribes through startup.ts. No Dexie here.

type Listener = () => void;
const outdated = { value: false, listeners: new Set<Listener>() };

/** True once a newer version has taken the database over (it stays so until the page reloads). */
export function isDatabaseOutdated(): boolean {
  return outdated.value;
}

/** Sets the flag and tells every subscriber (once). */
export function markDatabaseOutdated(): void {
  if (outdated.value) return;
  outdated.value = true;
  for (const listener of outdated.listeners) listener();
}

/** Subscribes to "a newer version took over the database"; called at once if it already has. */
export function onDatabaseOutdated(listener: Listener): () => void {
  if (outdated.value) listener();
  outdated.listeners.add(listener);
  return () => outdated.listeners.delete(listener);
}

/** Clears the flag; only for tests, which reuse one page for many databases. */
export function resetDatabaseOutdated(): void {
  outdated.value = false;
}
