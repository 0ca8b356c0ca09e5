// When the `posts` copy is rewritten, and the page's listeners that feed it: a local change marks
// it stale, a quiet idle moment writes it (at most about once a second, never during a burst of
// clicks), and another tab's or an older build's write is imported as a difference, in order.

import { onLocalChange } from '../storage/changes';
import { POSTS_KEY } from '../contracts';
import { whenIdle } from '../storage/idle';
import { applyExternalPostsChangeLater } from './import-start';
import { mirrorIsCurrent, writeMirrorNow } from './write';

const MIN_WRITE_INTERVAL_MS = 1_000;
// A burst of clicks (likes) postpones the copy until the person pauses: writing 4 MB to
// localStorage is one long task, and it must never land between two taps.
const INTERACTION_QUIET_MS = 1_500;
const STARTUP_WRITE_DELAY_MS = 5_000;
// Pages of a sync arrive back to back (a first sync of 100,000 posts is 100 of them): rewriting the
// copy between two pages would compete with them for the page and IndexedDB, so it waits this long
// after the last page.
const SYNC_QUIET_MS = 1_500;

/** The running mirror of one page (or one test). */
export interface LegacyMirror {
  /** Marks the copy stale; it is rewritten from IndexedDB soon (after `delay` ms at least), off the click path. */
  schedule(delay?: number): void;
  /** Writes any pending change now (used when the page is hidden, and by tests). */
  flush(): Promise<void>;
  /** Removes every listener and cancels every timer; a write already under way still finishes. */
  stop(): void;
}

export interface MirrorOptions {
  /** The write itself (tests pass a counter); defaults to `writeMirrorNow`. */
  write?: () => Promise<unknown>;
}

/**
 * Starts the mirror for this page: rewrites `posts` after every local change, applies the
 * changes other tabs or an older build write into it, and rewrites a stale copy once settled.
 * Everything it holds lives in the returned object; `stop()` leaves no timer or listener.
 */
export function startLegacyMirror(options: MirrorOptions = {}): LegacyMirror {
  const write = options.write ?? writeMirrorNow;
  const state = {
    stopped: false,
    dirty: false,
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
    cancelIdle: undefined as (() => void) | undefined,
    writing: undefined as Promise<unknown> | undefined,
    lastWriteAt: 0,
    lastInteractionAt: 0,
    lastSyncedAt: 0,
    queue: Promise.resolve(),
  };

  const arm = (delay: number): void => {
    if (state.stopped || state.timer !== undefined || state.cancelIdle || state.writing) return;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      state.cancelIdle = whenIdle(() => {
        state.cancelIdle = undefined;
        runScheduledWrite();
      });
    }, delay);
  };

  const runScheduledWrite = (): void => {
    const wait = Math.max(INTERACTION_QUIET_MS - (Date.now() - state.lastInteractionAt), SYNC_QUIET_MS - (Date.now() - state.lastSyncedAt));
    if (wait > 0) {
      arm(wait);
      return;
    }
    state.dirty = false;
    state.writing = write()
      .catch(() => null)
      .finally(() => {
        state.writing = undefined;
        state.lastWriteAt = Date.now();
        if (state.dirty) arm(MIN_WRITE_INTERVAL_MS);
      });
  };

  const schedule = (delay = 0): void => {
    state.dirty = true;
    arm(Math.max(delay, state.lastWriteAt + MIN_WRITE_INTERVAL_MS - Date.now()));
  };

  const cancelTimers = (): void => {
    if (state.timer !== undefined) clearTimeout(state.timer);
    state.cancelIdle?.();
    state.timer = undefined;
    state.cancelIdle = undefined;
  };

  const flush = async (): Promise<void> => {
    cancelTimers();
    await state.writing;
    state.dirty = false;
    await write().catch(() => null);
    state.lastWriteAt = Date.now();
  };

  const stopChanges = onLocalChange((kind) => {
    // Posts the member may no longer see left IndexedDB: they leave the copy now, not after the quiet wait.
    if (kind === 'revoked') {
      void flush();
      return;
    }
    if (kind === 'synced') state.lastSyncedAt = Date.now();
    schedule();
  });
  const onStorage = (event: StorageEvent) => {
    if (event.key === POSTS_KEY) {
      state.queue = state.queue
        .then(() => applyExternalPostsChangeLater(event.oldValue, event.newValue, () => schedule()))
        .catch(() => undefined);
    } else if (event.key === null) {
      schedule();
    }
  };
  const onInteraction = () => {
    state.lastInteractionAt = Date.now();
  };
  const onHidden = () => {
    if (document.visibilityState === 'hidden' && state.dirty) void flush();
  };
  const hasWindow = typeof window !== 'undefined';
  if (hasWindow) {
    window.addEventListener('storage', onStorage);
    window.addEventListener('pointerdown', onInteraction, { capture: true, passive: true });
    window.addEventListener('keydown', onInteraction, { capture: true, passive: true });
    document.addEventListener('visibilitychange', onHidden);
  }
  // A copy left stale by a page that closed too soon is rewritten once the page has settled:
  // setting 4 MB is one long task, which must not land while the page is still loading.
  void mirrorIsCurrent()
    .catch(() => false)
    .then((current) => {
      if (!current) schedule(STARTUP_WRITE_DELAY_MS);
    });

  return {
    schedule,
    flush,
    stop() {
      state.stopped = true;
      cancelTimers();
      stopChanges();
      if (!hasWindow) return;
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('pointerdown', onInteraction, { capture: true });
      window.removeEventListener('keydown', onInteraction, { capture: true });
      document.removeEventListener('visibilitychange', onHidden);
    },
  };
}
