// @vitest-environment happy-dom
// One way to reload the app: drafts are saved first, the page reloads once, and a reload the browser
// dropped (the page is still here) is asked again, waiting twice as long each time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const reload = vi.fn();

beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  reload.mockClear();
  vi.stubGlobal('location', { ...window.location, reload });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('reloadApp', () => {
  it('saves the drafts first, then reloads once, and again only while the page is still here', async () => {
    const { RELOAD_RETRY_MS, registerBeforeReload, reloadApp } = await import('../../../src/components/reload');
    const saved: string[] = [];
    registerBeforeReload(() => {
      saved.push('draft');
    });
    void reloadApp();
    void reloadApp();
    await vi.advanceTimersByTimeAsync(0);
    expect(saved).toEqual(['draft']);
    expect(reload).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RELOAD_RETRY_MS - 1);
    expect(reload).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(2);
    // Then after twice as long.
    await vi.advanceTimersByTimeAsync(2 * RELOAD_RETRY_MS - 1);
    expect(reload).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(3);
    expect(saved).toEqual(['draft']);
  });

  it('waits at most two seconds for a draft that will not save', async () => {
    const { registerBeforeReload, reloadApp } = await import('../../../src/components/reload');
    registerBeforeReload(() => new Promise<void>(() => undefined));
    void reloadApp();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
