// idleThrottle (src/db/storage/idle.ts): the forum's snapshot is taken at idle after a change, and a
// burst of changes (250 likes from one tab, 2,000 from eight) takes it at most once a gap, the last
// change's included. Here without requestIdleCallback (Node): "idle" is whenIdle's 200 ms timer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { idleThrottle } from '../../../../src/db/storage/idle';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('idleThrottle', () => {
  it('runs the first work asked at idle, with no gap before it', () => {
    const throttle = idleThrottle(1_000);
    const ran: string[] = [];
    throttle.ask(() => ran.push('first'));
    vi.advanceTimersByTime(199);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(['first']);
  });

  it('runs a burst of 100 asks over 3 s at most once a second, and the last one asked always', () => {
    const throttle = idleThrottle(1_000);
    const ran: number[] = [];
    for (let ask = 1; ask <= 100; ask += 1) {
      throttle.ask(() => ran.push(ask));
      vi.advanceTimersByTime(30);
    }
    vi.advanceTimersByTime(2_000);
    // At 200 ms (idle after the first ask), then a second after each run: 1,200, 2,200 and 3,200 ms.
    expect(ran.length).toBe(4);
    expect(ran.at(-1)).toBe(100);
    expect(ran).toEqual([...ran].sort((a, b) => a - b));
  });

  it('after a quiet gap, the next ask waits only for idle again', () => {
    const throttle = idleThrottle(1_000);
    const ran: string[] = [];
    throttle.ask(() => ran.push('one'));
    vi.advanceTimersByTime(200);
    vi.advanceTimersByTime(5_000);
    throttle.ask(() => ran.push('two'));
    vi.advanceTimersByTime(200);
    expect(ran).toEqual(['one', 'two']);
  });

  /** A throttle that ran 'one', then had work asked and cancelled within its gap. */
  function cancelledAfterOneRun() {
    const throttle = idleThrottle(1_000);
    const ran: string[] = [];
    throttle.ask(() => ran.push('one'));
    vi.advanceTimersByTime(200);
    throttle.ask(() => ran.push('dropped'));
    throttle.cancel();
    return { throttle, ran };
  }

  it('cancel drops the work asked; an ask after it is run in its turn', () => {
    const { throttle, ran } = cancelledAfterOneRun();
    vi.advanceTimersByTime(5_000);
    expect(ran).toEqual(['one']);
    throttle.ask(() => ran.push('two'));
    vi.advanceTimersByTime(200);
    expect(ran).toEqual(['one', 'two']);
  });

  it('within the gap, an ask after a cancel waits for the rest of the gap', () => {
    const { throttle, ran } = cancelledAfterOneRun();
    throttle.ask(() => ran.push('two'));
    vi.advanceTimersByTime(999);
    expect(ran).toEqual(['one']);
    vi.advanceTimersByTime(201);
    expect(ran).toEqual(['one', 'two']);
  });
});
