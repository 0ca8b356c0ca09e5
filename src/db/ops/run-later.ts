// The operations' runner (run.ts) with every operation's definition (src/shared/ops) is about 8 KB
// gzip that showing the forum does not need: screens run operations through here, and it loads with
// the first one (a like, a post, a notification read), or as soon as the member reaches for a
// button (preloadRunnerOnIntent), from the service worker's cache.
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
