// @vitest-environment happy-dom
// The forum snapshot's cookie (what lets src/boot/forum-snapshot.ts paint it) goes whenever the
// session changes, also when another tab says so over the BroadcastChannel (the only news of it
// where localStorage is unusable). The end-to-end tests cover sign-in, sign-out and the cache.
import { afterEach, describe, expect, it } from 'vitest';
import { onSessionChange } from '../../../src/db/accounts/session';
import { clearForumSnapshot, snapshotCookie } from '../../../src/db/core/forum-snapshot';

const TOKEN = '0123456789abcdef0123456789abcdef';
const setCookie = () => {
  document.cookie = `insight-snapshot=${TOKEN}; path=/`;
};

afterEach(() => clearForumSnapshot());

describe('the snapshot cookie', () => {
  it('is read back, and cleared by clearForumSnapshot', () => {
    setCookie();
    expect(snapshotCookie()).toBe(TOKEN);
    clearForumSnapshot();
    expect(snapshotCookie()).toBeUndefined();
  });

  it('goes when another tab announces a sign-in over the session channel', async () => {
    const stop = onSessionChange(() => undefined);
    setCookie();
    expect(snapshotCookie()).toBe(TOKEN);
    const otherTab = new BroadcastChannel('insight-exchange-session');
    const told = new Promise<void>((resolve) => {
      const stopTold = onSessionChange(() => {
        stopTold();
        resolve();
      });
    });
    otherTab.postMessage(JSON.stringify({ email: 'omar.other@example.com', name: 'Omar', role: 'user' }));
    await told;
    expect(snapshotCookie()).toBeUndefined();
    otherTab.close();
    stop();
  });
});
