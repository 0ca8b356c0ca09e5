// Fake timers that leave fake-indexeddb working: only setTimeout/setInterval are faked (IndexedDB
// here runs on setImmediate and promises), and a way to let pending promises run without a timer.
import { vi } from 'vitest';

export function fakeTimeouts(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

/** One turn of Node's event loop (setImmediate, which fake timers leave real; no Node types here). */
export const nextTurn = () =>
  new Promise<void>((resolve) => (globalThis as unknown as { setImmediate: (callback: () => void) => void }).setImmediate(resolve));

/** Lets IndexedDB and promise work run (setImmediate is real) until `done()` holds; fails after 500 turns. */
export async function settleUntil(done: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 500; turn += 1) {
    if (done()) return;
    await nextTurn();
  }
  throw new Error(`Never happened: ${what}`);
}

/**
 * Date.now() returns `clock.now` from here on (restored by vi.restoreAllMocks): a test moves time
 * by setting it. Timers stay real.
 */
export function mockNow(start = Date.now()): { now: number } {
  const clock = { now: start };
  vi.spyOn(Date, 'now').mockImplementation(() => clock.now);
  return clock;
}
