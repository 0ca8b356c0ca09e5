// The operations' runner (run.ts) with every operation's definition (src/shared/ops) is about 8 KB
// gzip that showing the forum does not need: screens run operations through here, and it loads with
// the first one (a like, a post, a notification read), or as soon as the member reaches for a
// button (preloadRunnerOnIntent), from the service worker's cache. Where no service worker holds
// the app's files (a first visit before it has them, a browser without one), it loads while the
// network is there (preloadRunnerUncached): a like made offline must not wait for a file.
import type { OpType } from '../../shared/ops/registry';
import type { Payload } from './outbox';
import type { Ran, RunOptions } from './run';

/** The runner's module (loaded once). */
export const loadRunner = () => import('./run');

/** runOperation (run.ts), once the runner is loaded. */
export async function runOperation<T extends OpType>(type: T, payload: Payload<T>, options?: RunOptions): Promise<Ran> {
  return (await loadRunner()).runOperation(type, payload, options);
}

const INTENT_EVENTS = ['pointerover', 'touchstart', 'focusin'] as const;

/**
 * Loads the runner when the member first reaches for a button (a pointer over it, a finger on it,
 * focus on it): by the time they press it, their operation need not wait for its code.
 */
export function preloadRunnerOnIntent(load: () => Promise<unknown> = loadRunner): () => void {
  const stop = () => {
    for (const type of INTENT_EVENTS) document.removeEventListener(type, onIntent, { capture: true });
  };
  function onIntent(event: Event) {
    if (!(event.target instanceof Element) || !event.target.closest('button, [role="button"]')) return;
    stop();
    void load().catch(() => undefined);
  }
  for (const type of INTENT_EVENTS) document.addEventListener(type, onIntent, { capture: true, passive: true });
  return stop;
}

/** True when a service worker controls this page (it holds every file of the app, offline too). */
const workerHoldsFiles = () => typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller);

/** Loads the runner now unless a service worker holds it; `held` says whether one does. */
export function preloadRunnerUncached(load: () => Promise<unknown> = loadRunner, held: () => boolean = workerHoldsFiles): void {
  if (!held()) void load().catch(() => undefined);
}
