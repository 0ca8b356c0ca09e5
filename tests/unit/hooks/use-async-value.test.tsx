// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useAsyncValue } from '../../../src/hooks/use-async-value';
import { deferred } from '../deferred';

afterEach(cleanup);

describe('useAsyncValue', () => {
  it('keeps only the newest question’s answer: a late answer to an older key is dropped', async () => {
    const answers = { a: deferred<string>(), b: deferred<string>() };
    const { result, rerender } = renderHook(({ key }: { key: 'a' | 'b' }) => useAsyncValue(() => answers[key].promise, { key }), {
      initialProps: { key: 'a' as 'a' | 'b' },
    });
    rerender({ key: 'b' });
    await act(async () => answers.b.resolve('answer to b'));
    await waitFor(() => expect(result.current).toMatchObject({ key: 'b', value: 'answer to b', revision: 1 }));
    await act(async () => answers.a.resolve('late answer to a'));
    expect(result.current).toMatchObject({ key: 'b', value: 'answer to b' });
  });

  it('asks again on refresh, uses the fallback on failure, and asks nothing without a read', async () => {
    let calls = 0;
    const { result, rerender } = renderHook(
      ({ refresh, fail, on }) =>
        useAsyncValue(on ? () => (calls++, fail ? Promise.reject(new Error('no')) : Promise.resolve(calls)) : undefined, {
          key: 'k',
          refresh,
          fallback: -1,
        }),
      {
        initialProps: { refresh: 0, fail: false, on: true },
      },
    );
    await waitFor(() => expect(result.current?.value).toBe(1));
    rerender({ refresh: 1, fail: true, on: true });
    await waitFor(() => expect(result.current).toMatchObject({ value: -1, revision: 2 }));
    rerender({ refresh: 2, fail: false, on: false });
    expect(calls).toBe(2);
    expect(result.current?.value).toBe(-1);
  });
});
