// One way to reload the app, used when a new version takes over: everything that holds unsaved
// work (the New Post draft) gets to save it first.

type BeforeReload = () => Promise<void> | void;

const guards = new Set<BeforeReload>();
let reloading = false;
let updateDeployed = false;

/** Called when a code chunk is missing (`vite:preloadError`): a newer version was deployed. */
export function noteMissingChunk(): void {
  updateDeployed = true;
}

/** True once a missing chunk showed that a newer version was deployed since this page loaded. */
export function newerVersionDeployed(): boolean {
  return updateDeployed;
}

/** Registers work to finish before the app reloads; returns the unregister function. */
export function registerBeforeReload(guard: BeforeReload): () => void {
  guards.add(guard);
  return () => guards.delete(guard);
}

/** How long a reload may go without replacing this page before it is asked again (then twice as long, and so on). */
export const RELOAD_RETRY_MS = 5_000;

/**
 * Saves what must be saved (for at most two seconds), then reloads the page once. Should the
 * browser drop that reload (seen when its navigation met a new version's service worker taking
 * over: this page stayed), it is asked again.
 */
export async function reloadApp(): Promise<void> {
  if (reloading) return;
  reloading = true;
  const saving = Promise.allSettled([...guards].map(async (guard) => guard()));
  await Promise.race([saving, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  const reload = (wait: number) => {
    window.location.reload();
    // A reload that goes through replaces this page, and this timer with it.
    setTimeout(() => reload(wait * 2), wait);
  };
  reload(RELOAD_RETRY_MS);
}
