// The decode queue of server/attachments/clean-image.ts: at most DECODES_AT_ONCE images are decoded
// at a time, the others wait in the order they came, and a failed decode gives its turn back.
import { describe, expect, it } from 'vitest';
import { DECODES_AT_ONCE, oneOfFew } from '../../../server/attachments/clean-image';

describe('the image decode queue', () => {
  it('runs at most DECODES_AT_ONCE at a time, the rest in order; a failure passes its turn on', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const job = (index: number, fails = false) =>
      oneOfFew(async () => {
        running += 1;
        most = Math.max(most, running);
        started.push(index);
        await new Promise<void>((done) => finish.push(done));
        running -= 1;
        if (fails) throw new Error(`job ${index} failed`);
        return index;
      });
    const jobs = [job(0, true), job(1), job(2), job(3), job(4)];
    const settled = Promise.allSettled(jobs);
    // Each job started ends when told; the next waiting one then starts.
    for (let ended = 0; ended < jobs.length; ended += 1) {
      await expect.poll(() => finish.length).toBeGreaterThan(ended);
      expect(running).toBeLessThanOrEqual(DECODES_AT_ONCE);
      finish[ended]!();
    }
    const outcomes = await settled;
    expect(outcomes[0]).toMatchObject({ status: 'rejected' });
    expect(outcomes.slice(1).map((outcome) => (outcome as PromiseFulfilledResult<number>).value)).toEqual([1, 2, 3, 4]);
    expect(most).toBe(DECODES_AT_ONCE);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    // Every turn was given back: a new job starts at once.
    expect(await oneOfFew(async () => 'free')).toBe('free');
  });
});
