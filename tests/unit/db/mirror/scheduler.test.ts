import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLegacyMirror } from '../../../../src/db/mirror/scheduler';
import { emitLocalChange } from '../../../../src/db/storage/changes';
import { fakeTimeouts, settleUntil } from '../../timers';

afterEach(() => {
  vi.useRealTimers();
});

describe('the mirror service', () => {
  it('writes once after a change, when its timer fires', async () => {
    fakeTimeouts();
    const write = vi.fn(async () => null);
    const mirror = startLegacyMirror({ write });
    await settleUntil(() => vi.getTimerCount() === 1, 'the start-up write is scheduled');
    emitLocalChange('op:like');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(write).toHaveBeenCalledTimes(1);
    mirror.stop();
  });

  it('start → stop leaves no timer running, and a change after stop schedules nothing', async () => {
    fakeTimeouts();
    const write = vi.fn(async () => null);
    const mirror = startLegacyMirror({ write });
    // An empty database has no current copy: the start-up rewrite is scheduled.
    await settleUntil(() => vi.getTimerCount() === 1, 'the start-up write is scheduled');
    mirror.stop();
    expect(vi.getTimerCount()).toBe(0);
    emitLocalChange('op:like');
    mirror.schedule();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(write).not.toHaveBeenCalled();
  });

  it('stop cancels a write that was waiting for an idle moment', async () => {
    fakeTimeouts();
    const write = vi.fn(async () => null);
    const mirror = startLegacyMirror({ write });
    await settleUntil(() => vi.getTimerCount() === 1, 'the start-up write is scheduled');
    // Past the delay: the write now waits for idle time (a short timer where there is no requestIdleCallback).
    await vi.advanceTimersByTimeAsync(5_000);
    expect(vi.getTimerCount()).toBe(1);
    mirror.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(write).not.toHaveBeenCalled();
  });

  it('waits while pulled pages keep arriving, then writes once', async () => {
    fakeTimeouts();
    const write = vi.fn(async () => null);
    const mirror = startLegacyMirror({ write });
    await settleUntil(() => vi.getTimerCount() === 1, 'the start-up write is scheduled');
    // A first sync: a page every 500 ms for 10 s; the copy is not rewritten between two pages.
    for (let page = 0; page < 20; page += 1) {
      emitLocalChange('synced');
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(write).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(write).toHaveBeenCalledTimes(1);
    mirror.stop();
  });
});
