// @vitest-environment happy-dom
// The app's side of an update: Reload asks the waiting version to take over, the takeover reloads
// every tab once, and Reload reloads this tab anyway should the takeover not come.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const reloadApp = vi.fn();
const messageSkipWaiting = vi.fn();
vi.mock('../../../../src/components/reload', () => ({ reloadApp }));
vi.mock('workbox-window', () => ({
  Workbox: class {
    messageSkipWaiting = messageSkipWaiting;
    addEventListener() {}
    register() {
      return Promise.resolve(undefined);
    }
  },
}));

const serviceWorkerListeners = new Map<string, () => void>();

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubEnv('DEV', false);
  vi.stubGlobal('navigator', {
    onLine: true,
    userAgent: navigator.userAgent,
    serviceWorker: {
      controller: {},
      addEventListener: (type: string, listener: () => void) => serviceWorkerListeners.set(type, listener),
    },
  });
  vi.resetModules();
  reloadApp.mockClear();
  messageSkipWaiting.mockClear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('applyUpdate (Reload on "A new version is available")', () => {
  it('asks the waiting version to take over; the takeover reloads the tab once', async () => {
    const { applyUpdate, startPwa } = await import('../../../../src/features/pwa/pwa-store');
    startPwa();
    applyUpdate();
    expect(messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(reloadApp).not.toHaveBeenCalled();
    serviceWorkerListeners.get('controllerchange')!();
    expect(reloadApp).toHaveBeenCalledTimes(1);
  });

  it('reloads this tab itself when the takeover has not come after UPDATE_TAKEOVER_MS', async () => {
    const { applyUpdate, startPwa, UPDATE_TAKEOVER_MS } = await import('../../../../src/features/pwa/pwa-store');
    startPwa();
    applyUpdate();
    vi.advanceTimersByTime(UPDATE_TAKEOVER_MS - 1);
    expect(reloadApp).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reloadApp).toHaveBeenCalledTimes(1);
  });

  it('does nothing without a service worker (the dev server)', async () => {
    vi.stubEnv('DEV', true);
    const { applyUpdate, startPwa } = await import('../../../../src/features/pwa/pwa-store');
    startPwa();
    applyUpdate();
    vi.advanceTimersByTime(60_000);
    expect(messageSkipWaiting).not.toHaveBeenCalled();
    expect(reloadApp).not.toHaveBeenCalled();
  });
});
