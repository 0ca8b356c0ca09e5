import { describe, expect, it } from 'vitest';
import { latestOnly } from '../../../src/lib/latest-only';
import { deferred } from '../deferred';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('latestOnly', () => {
  it("never lets an earlier question's late answer replace a newer one", async () => {
    const answers = latestOnly();
    const shown: string[] = [];
    const slow = deferred<string>();
    const fast = deferred<string>();
    answers.run(slow.promise, (answer) => shown.push(answer));
    answers.run(fast.promise, (answer) => shown.push(answer));
    fast.resolve('results for "panel"');
    await settle();
    slow.resolve('results for "pan"');
    await settle();
    expect(shown).toEqual(['results for "panel"']);
  });

  it('keeps answers that arrive in order, and drops errors of old questions', async () => {
    const answers = latestOnly();
    const shown: string[] = [];
    const errors: unknown[] = [];
    const first = deferred<string>();
    answers.run(
      first.promise,
      (answer) => shown.push(answer),
      (error) => errors.push(error),
    );
    first.resolve('one');
    await settle();
    const failing = deferred<string>();
    answers.run(
      failing.promise,
      (answer) => shown.push(answer),
      (error) => errors.push(error),
    );
    answers.run(
      Promise.resolve('three'),
      (answer) => shown.push(answer),
      (error) => errors.push(error),
    );
    failing.reject(new Error('late failure'));
    await settle();
    expect(shown).toEqual(['one', 'three']);
    expect(errors).toEqual([]);
  });

  it('cancel drops the answer in flight', async () => {
    const answers = latestOnly();
    const shown: string[] = [];
    const pending = deferred<string>();
    answers.run(pending.promise, (answer) => shown.push(answer));
    answers.cancel();
    pending.resolve('too late');
    await settle();
    expect(shown).toEqual([]);
  });
});
