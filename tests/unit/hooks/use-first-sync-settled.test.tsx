// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSyncStatus, setSyncStatus } from '../../../src/sync/status';
import { useFirstSyncSettled } from '../../../src/hooks/use-first-sync-settled';
import { deferred } from '../deferred';

// The mode check asks the server (or the device's mark); here each test answers it.
const mode = vi.hoisted(() => ({ answer: Promise.resolve(false) }));
vi.mock('../../../src/sync/start', () => ({ isConnected: () => mode.answer }));

beforeEach(() => resetSyncStatus());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("useFirstSyncSettled (a post's page waits for it before saying the post is not available)", () => {
  it('settles on a local-only device once the mode is known', async () => {
    const answer = deferred<boolean>();
    mode.answer = answer.promise;
    const { result } = renderHook(() => useFirstSyncSettled());
    expect(result.current).toBe(false);
    await act(async () => answer.resolve(false));
    expect(result.current).toBe(true);
  });

  it('waits on a connected device until its sync settles, then stays settled through later syncs', async () => {
    mode.answer = Promise.resolve(true);
    const { result } = renderHook(() => useFirstSyncSettled());
    await act(async () => undefined);
    expect(result.current).toBe(false);
    act(() => setSyncStatus({ state: 'syncing' }));
    expect(result.current).toBe(false);
    act(() => setSyncStatus({ state: 'synced' }));
    expect(result.current).toBe(true);
    act(() => setSyncStatus({ state: 'syncing' }));
    expect(result.current).toBe(true);
  });

  it('counts offline and a sync error as settled', async () => {
    mode.answer = Promise.resolve(true);
    for (const state of ['offline', 'error'] as const) {
      resetSyncStatus();
      const { result, unmount } = renderHook(() => useFirstSyncSettled());
      await act(async () => undefined);
      expect(result.current).toBe(false);
      act(() => setSyncStatus({ state }));
      expect(result.current).toBe(true);
      unmount();
    }
  });

  it('gives up waiting after 15 seconds when no sync ever reports', async () => {
    vi.useFakeTimers();
    mode.answer = Promise.resolve(true);
    const { result } = renderHook(() => useFirstSyncSettled());
    await act(async () => undefined);
    act(() => vi.advanceTimersByTime(14_999));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });
});
