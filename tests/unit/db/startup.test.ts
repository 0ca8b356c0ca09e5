import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDataLayer } from '../../../src/db/startup';
import { db } from '../../../src/db/storage/schema';
import { FIRST_POSTS_MARK, markFirstPostsShown } from '../../../src/db/storage/idle';
import { META_KEYS, POSTS_KEY } from '../../../src/db/contracts';
import { emitLocalChange } from '../../../src/db/storage/changes';
import { makePost } from '../factories';
import { fakeTimeouts, nextTurn, settleUntil } from '../timers';

beforeEach(() => {
  performance.clearMarks(FIRST_POSTS_MARK);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the start-up service', () => {
  it('a first start imports, seeds and starts the mirror; start → stop leaves no timer running', async () => {
    fakeTimeouts();
    const layer = createDataLayer();
    const result = await layer.start();
    expect(result).toMatchObject({ ok: true, seeded: true });
    // The mirror's start-up rewrite waits on a timer.
    await settleUntil(() => vi.getTimerCount() > 0, 'the mirror schedules its first write');
    layer.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a later start reads the legacy copy only after the first page of posts is shown', async () => {
    await db.meta.put({ key: META_KEYS.seeded, value: true });
    localStorage.setItem(POSTS_KEY, JSON.stringify([makePost({ id: 42, title: 'From the older build' })]));
    // The import's code comes with import() when a copy holds something new; loaded here first, it
    // is there at once under the fake clock below (a module loads in real time).
    await import('../../../src/db/mirror/import');
    fakeTimeouts();
    const layer = createDataLayer();
    const started = layer.start();
    await expect(layer.whenUsable()).resolves.toEqual({ ok: true });
    // Usable, and waiting (on its 3 s fallback timer) for the forum's first page: nothing read yet.
    await settleUntil(() => vi.getTimerCount() === 1, 'the wait for the first posts is armed');
    expect(await db.posts.get(42)).toBeUndefined();
    markFirstPostsShown();
    // Well before the 3 s fallback, the mark (then idle time) lets the import run.
    let waited = 0;
    let imported = false;
    started.then(
      () => (imported = true),
      () => undefined,
    );
    while (!imported && waited < 2_000) {
      await vi.advanceTimersByTimeAsync(100);
      waited += 100;
      await nextTurn();
    }
    expect(imported).toBe(true);
    await expect(started).resolves.toMatchObject({ ok: true, legacy: { present: true, added: 1 } });
    expect((await db.posts.get(42))?.title).toBe('From the older build');
    layer.stop();
  });

  it('a like before a later start’s deferred work has run still asks for durable storage', async () => {
    await db.meta.put({ key: META_KEYS.seeded, value: true });
    const persist = vi.fn(async () => true);
    vi.stubGlobal('navigator', { storage: { persisted: async () => false, persist } });
    try {
      fakeTimeouts();
      const layer = createDataLayer();
      void layer.start();
      await expect(layer.whenUsable()).resolves.toEqual({ ok: true });
      // Still waiting for the forum's first page (the deferred import, the mirror): the member likes.
      await settleUntil(() => vi.getTimerCount() === 1, 'the wait for the first posts is armed');
      emitLocalChange('op:like');
      await settleUntil(() => persist.mock.calls.length === 1, 'persistent storage asked for');
      layer.stop();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a later start with no posts list on screen still imports, after a bounded wait; stop while waiting leaves no timer', async () => {
    await db.meta.put({ key: META_KEYS.seeded, value: true });
    fakeTimeouts();
    const layer = createDataLayer();
    const started = layer.start();
    await settleUntil(() => vi.getTimerCount() === 1, 'the wait for the first posts is armed');
    layer.stop();
    expect(vi.getTimerCount()).toBe(0);
    await expect(started).resolves.toMatchObject({ ok: true, legacy: { present: false } });
  });
});
