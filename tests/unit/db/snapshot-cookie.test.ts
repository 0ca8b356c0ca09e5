// @vitest-environment happy-dom
// The forum snapshot's cookie (what lets src/boot/forum-snapshot.ts paint it) goes whenever the
// session changes, also when another tab says so over the BroadcastChannel (the only news of it
// where localStorage is unusable). The end-to-end tests cover sign-in, sign-out and the cache.
import { afterEach, describe, expect, it } from 'vitest';
import { onSessionChange } from '../../../src/db/members/session';
import { clearForumSnapshot, snapshotCookie } from '../../../src/db/storage/forum-snapshot';

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

describe('the snapshot a page may paint', () => {
  it('is the forum’s at /forum and a post’s at /posts/<id>, and none with anything after the path', async () => {
    const { snapshotUrlFor } = await import('../../../src/db/contracts');
    expect(snapshotUrlFor('/forum')).toBe('/__forum-snapshot');
    expect(snapshotUrlFor('/posts/1700000000000')).toBe('/__forum-snapshot/posts/1700000000000');
    expect(snapshotUrlFor('/forum', '?q=panel')).toBeNull();
    expect(snapshotUrlFor('/posts/12', '?page=2')).toBeNull();
    expect(snapshotUrlFor('/posts/12', '', '#reply-abc')).toBeNull();
    for (const path of ['/', '/profile', '/posts/', '/posts/0', '/posts/12/edit', '/posts/abc', '/posts/../forum']) {
      expect(snapshotUrlFor(path), path).toBeNull();
    }
  });

  it('keeps the page’s markup without what was typed, live regions or “New” marks', async () => {
    const { snapshotHtml } = await import('../../../src/boot/forum-snapshot-app');
    const root = document.createElement('div');
    root.innerHTML = [
      '<article>Post<span data-not-in-snapshot="">New</span></article>',
      '<ol class="app-replies">',
      ...Array.from({ length: 25 }, (_, index) => `<li>Reply ${index + 1}</li>`),
      '</ol>',
      '<div role="status">Saved</div>',
      '<textarea>a draft kept on this device</textarea><input type="search" value="typed">',
    ].join('');
    const html = snapshotHtml(root, '.app-replies > li', 1);
    expect(html).toContain('<article>Post</article>');
    // At most a first page's worth of items (happy-dom lays nothing out: all on the first screen).
    expect(html).toContain('Reply 20<');
    expect(html).not.toContain('Reply 21<');
    expect(html).not.toContain('Saved');
    expect(html).not.toContain('a draft');
    expect(html).not.toContain('typed');
  });
});
