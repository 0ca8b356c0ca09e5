import { describe, expect, it, vi } from 'vitest';
import { importLegacyPostsAtStart } from '../../../../src/db/mirror/import-start';
import {
  applyExternalPostsChange,
  importLegacyPosts,
  MIRROR_STATS_KEY,
  mirrorIsCurrent,
  onMirrorReport,
  parseMirror,
  writeMirrorNow,
  type MirrorReport,
} from '../../../../src/db/mirror/legacy-mirror';
import { likePost } from '../../../../src/db/likes/likes';
import { db } from '../../../../src/db/storage/schema';
import { POST_FIELDS } from '../../../../src/db/contracts';
import type { Post, Reply } from '../../../../src/db/types';
import { type MemoryStorage } from '../../memory-storage';
import { makePost, signInAsMember, storePosts } from '../../factories';

const makeReplyRow = (postId: number): Reply => ({
  id: `reply-on-${postId}`,
  postId,
  author: 'Replier',
  authorEmail: 'replier@example.com',
  authorRole: 'user',
  content: 'A visible reply',
  quoteId: null,
  createdAt: 1_800_000_000_000,
  editedAt: null,
  state: 'visible',
});
const mirror = (): Post[] => JSON.parse(localStorage.getItem('posts') ?? 'null') as Post[];
const collectReports = () => {
  const reports: MirrorReport[] = [];
  const stop = onMirrorReport((report) => reports.push(report));
  return { reports, stop };
};

describe('writing the mirror', () => {
  it('holds every post of every status with exactly the spec fields, newest first', async () => {
    await storePosts(
      makePost({ id: 1, status: 'approved' }),
      makePost({ id: 2, status: 'pending' }),
      makePost({ id: 3, status: 'rejected' }),
    );
    await writeMirrorNow();
    expect(mirror().map((post) => [post.id, post.status])).toEqual([
      [3, 'rejected'],
      [2, 'pending'],
      [1, 'approved'],
    ]);
    for (const post of mirror()) expect(Object.keys(post)).toEqual([...POST_FIELDS]);
  });

  it('round-trips: IndexedDB → posts → a fresh IndexedDB gives the same posts', async () => {
    const originals = await storePosts(makePost({ likes: 3, tags: ['a', 'b'] }), makePost({ status: 'pending', title: 'Ünïcødé ✓ עברית' }));
    await writeMirrorNow();
    const saved = localStorage.getItem('posts');
    await db.delete({ disableAutoOpen: false });
    localStorage.setItem('posts', saved!);
    const result = await importLegacyPosts();
    expect(result).toMatchObject({ present: true, corrupt: false, added: 2, updated: 0 });
    const rows = await db.posts.orderBy('id').toArray();
    expect(rows.map(({ rev: _rev, arrivedAt: _arrivedAt, ...post }) => post)).toEqual(originals);
  });

  it('keeps the newest posts that fit the budget and reports how many it holds', async () => {
    await storePosts(...Array.from({ length: 50 }, (_, i) => makePost({ id: i + 1, content: 'x'.repeat(200) })));
    const oneSize = JSON.stringify(mirrorPostFor(50)).length;
    const stats = await writeMirrorNow(oneSize * 10 + 20);
    expect(stats).toMatchObject({ count: 10, total: 50 });
    expect(mirror().map((post) => post.id)).toEqual([50, 49, 48, 47, 46, 45, 44, 43, 42, 41]);
    expect((await db.meta.get(MIRROR_STATS_KEY))?.value).toMatchObject({ count: 10, total: 50 });
    expect(await db.posts.count()).toBe(50);
  });

  it('shrinks the copy instead of failing when the quota is full', async () => {
    await storePosts(...Array.from({ length: 40 }, (_, i) => makePost({ id: i + 1, content: 'y'.repeat(500) })));
    (localStorage as unknown as MemoryStorage).quota = 8_000;
    const stats = await writeMirrorNow();
    expect(stats).not.toBeNull();
    expect(stats!.count).toBeGreaterThan(0);
    expect(stats!.count).toBeLessThan(40);
    expect(mirror()).toHaveLength(stats!.count);
    expect(mirror()[0]?.id).toBe(40);
  });

  it('knows at start whether the copy is current, without rebuilding it', async () => {
    signInAsMember();
    await storePosts(makePost({ id: 1 }));
    expect(await mirrorIsCurrent()).toBe(false);
    await writeMirrorNow();
    expect(await mirrorIsCurrent()).toBe(true);
    await likePost(1);
    expect(await mirrorIsCurrent()).toBe(false);
    await writeMirrorNow();
    expect(await mirrorIsCurrent()).toBe(true);
    localStorage.setItem('posts', '[]');
    expect(await mirrorIsCurrent()).toBe(false);
  });

  it('does nothing, and throws nothing, when localStorage throws on every call', async () => {
    await storePosts(makePost());
    (localStorage as unknown as MemoryStorage).failWith = new Error('SecurityError');
    await expect(writeMirrorNow()).resolves.toBeNull();
    await expect(importLegacyPosts()).resolves.toMatchObject({ present: false });
  });
});

describe('hostile values under posts', () => {
  it('skips one post larger than the budget instead of stopping at it, and counts it', async () => {
    await storePosts(makePost({ id: 1 }), makePost({ id: 2, content: 'c'.repeat(50_000) }), makePost({ id: 3 }));
    const stats = await writeMirrorNow(20_000);
    expect(mirror().map((post) => post.id)).toEqual([3, 1]);
    expect(stats).toMatchObject({ count: 2, total: 3, skipped: 1 });
  });

  it('refuses an unbroken 300,000-character title, a huge id and keeps the rest; emails are lower-cased', async () => {
    localStorage.setItem(
      'posts',
      JSON.stringify([
        makePost({ id: 5, title: 'T'.repeat(300_000) }),
        makePost({ id: Number.MAX_SAFE_INTEGER }),
        makePost({ id: 6, authorEmail: 'Jane.Doe@Example.com' }),
      ]),
    );
    const { reports, stop } = collectReports();
    expect(await importLegacyPosts()).toMatchObject({ added: 1, skipped: 2 });
    stop();
    expect(reports).toEqual([
      { kind: 'skipped', count: 2, reason: 'An entry (id 5) is refused: Title can be at most 200 characters (it has 300,000).' },
    ]);
    expect((await db.posts.get(6))?.authorEmail).toBe('jane.doe@example.com');
  });
});

function mirrorPostFor(id: number): Post {
  return { ...makePost({ id, content: 'x'.repeat(200) }) };
}

describe('importing posts on start', () => {
  it('is additive: nothing in IndexedDB is dropped, unknown posts are added, known ones merged', async () => {
    await storePosts(makePost({ id: 1, likes: 10, status: 'pending' }), makePost({ id: 2, likes: 4 }));
    localStorage.setItem(
      'posts',
      JSON.stringify([
        makePost({ id: 1, likes: 12, status: 'approved' }),
        makePost({ id: 2, likes: 1 }),
        makePost({ id: 3, title: 'From the older build' }),
      ]),
    );
    expect(await importLegacyPosts()).toMatchObject({ added: 1, updated: 1 });
    const rows = await db.posts.orderBy('id').toArray();
    expect(rows.map((post) => [post.id, post.likes, post.status])).toEqual([
      [1, 12, 'approved'],
      [2, 4, 'approved'],
      [3, 0, 'approved'],
    ]);
  });

  it('keeps invalid JSON aside under posts.corrupt-<timestamp>, reports it, and only then overwrites', async () => {
    await storePosts(makePost({ id: 7 }));
    localStorage.setItem('posts', '[{"id": 1, "title": "half a post');
    const { reports, stop } = collectReports();
    expect(await importLegacyPosts()).toMatchObject({ present: true, corrupt: true });
    stop();
    expect(reports).toHaveLength(1);
    const report = reports[0]!;
    expect(report).toMatchObject({ kind: 'corrupt', storedIn: 'localStorage' });
    const key = (report as { key: string }).key;
    expect(key).toMatch(/^posts\.corrupt-\d+$/);
    expect(localStorage.getItem(key)).toBe('[{"id": 1, "title": "half a post');
    await writeMirrorNow();
    expect(mirror().map((post) => post.id)).toEqual([7]);
    expect(localStorage.getItem(key)).toBe('[{"id": 1, "title": "half a post');
  });

  it('keeps a corrupt value found later aside before the mirror overwrites it', async () => {
    await storePosts(makePost({ id: 7 }));
    localStorage.setItem('posts', '{"not": "an array"}');
    const { reports, stop } = collectReports();
    await writeMirrorNow();
    stop();
    expect(reports.map((report) => report.kind)).toEqual(['corrupt']);
    expect(localStorage.getItem((reports[0] as { key: string }).key)).toBe('{"not": "an array"}');
    expect(mirror().map((post) => post.id)).toEqual([7]);
  });

  it('skips unreadable entries and reports how many', async () => {
    localStorage.setItem('posts', JSON.stringify([makePost({ id: 5 }), { id: 'x' }, { id: 6 }, 'text']));
    const { reports, stop } = collectReports();
    expect(await importLegacyPosts()).toMatchObject({ added: 1, skipped: 3 });
    stop();
    expect(reports).toEqual([
      { kind: 'skipped', count: 3, reason: 'An entry has no valid id (a positive whole number, at most a timestamp of the year 2100).' },
    ]);
  });
});

describe('changes written by another tab or an older build', () => {
  it('applies the difference, so a like written into posts adds to concurrent likes instead of undoing them', async () => {
    signInAsMember();
    await storePosts(makePost({ id: 1, likes: 5 }));
    await writeMirrorNow();
    const before = localStorage.getItem('posts')!;
    // Meanwhile this build records two likes in IndexedDB…
    await likePost(1);
    await likePost(1);
    // …and an older build, from its stale copy, writes likes 5 → 6.
    const after = JSON.stringify(mirror().map((post) => ({ ...post, likes: post.likes + 1 })));
    await applyExternalPostsChange(before, after);
    expect((await db.posts.get(1))?.likes).toBe(8);
  });

  it('applies one write once however many tabs see the event', async () => {
    await storePosts(makePost({ id: 1, likes: 5 }));
    const before = JSON.stringify([makePost({ id: 1, likes: 5 })]);
    const after = JSON.stringify([makePost({ id: 1, likes: 6 })]);
    await Promise.all([applyExternalPostsChange(before, after), applyExternalPostsChange(before, after)]);
    expect((await db.posts.get(1))?.likes).toBe(6);
  });

  it('adds new posts and status changes, and ignores decreases', async () => {
    await storePosts(makePost({ id: 1, likes: 5, status: 'pending' }), makePost({ id: 2, likes: 9 }));
    const before = JSON.stringify([makePost({ id: 1, likes: 5, status: 'pending' }), makePost({ id: 2, likes: 9 })]);
    const after = JSON.stringify([
      makePost({ id: 1, likes: 5, status: 'approved' }),
      makePost({ id: 2, likes: 3 }),
      makePost({ id: 3, title: 'New from the old build', status: 'pending' }),
    ]);
    await applyExternalPostsChange(before, after);
    const rows = await db.posts.orderBy('id').toArray();
    expect(rows.map((post) => [post.id, post.likes, post.status])).toEqual([
      [1, 5, 'approved'],
      [2, 9, 'approved'],
      [3, 0, 'pending'],
    ]);
  });

  it('adds likes and views from an older build, never comments: those are the visible replies here', async () => {
    await storePosts(makePost({ id: 1, likes: 5, views: 2, comments: 1 }));
    await db.replies.add({ ...makeReplyRow(1), listed: 1 });
    const before = JSON.stringify([makePost({ id: 1, likes: 5, views: 2, comments: 1 })]);
    const after = JSON.stringify([
      makePost({ id: 1, likes: 7, views: 3, comments: 9 }),
      makePost({ id: 2, title: 'New from the old build', comments: 4 }),
    ]);
    await applyExternalPostsChange(before, after);
    const rows = await db.posts.orderBy('id').toArray();
    expect(rows.map((post) => [post.id, post.likes, post.views, post.comments])).toEqual([
      [1, 7, 3, 1],
      [2, 0, 0, 0],
    ]);
  });

  it('imports an older build’s posts on start with the comments of this device (0 without replies)', async () => {
    await storePosts(makePost({ id: 1, comments: 1 }));
    await db.replies.add({ ...makeReplyRow(1), listed: 1 });
    localStorage.setItem('posts', JSON.stringify([makePost({ id: 1, comments: 12 }), makePost({ id: 2, comments: 15 })]));
    expect(await importLegacyPosts()).toMatchObject({ added: 1 });
    expect((await db.posts.orderBy('id').toArray()).map((post) => post.comments)).toEqual([1, 0]);
  });

  it('at start, reads an older build’s copy from localStorage once, and imports it (issue 44)', async () => {
    localStorage.setItem('posts', JSON.stringify([makePost({ id: 1 }), makePost({ id: 2 })]));
    const reads = vi.spyOn(localStorage, 'getItem');
    try {
      expect(await importLegacyPostsAtStart()).toMatchObject({ present: true, added: 2 });
      expect(reads.mock.calls.filter(([key]) => key === 'posts')).toHaveLength(1);
    } finally {
      reads.mockRestore();
    }
    // The copy is this build's own now: the next start neither parses nor imports it.
    await writeMirrorNow();
    expect(await importLegacyPostsAtStart()).toEqual({ present: true, corrupt: false, added: 0, updated: 0, skipped: 0 });
  });

  it('ignores the mirror values this build wrote itself', async () => {
    signInAsMember();
    await storePosts(makePost({ id: 1, likes: 5 }));
    await writeMirrorNow();
    const before = localStorage.getItem('posts')!;
    await likePost(1);
    await writeMirrorNow();
    const after = localStorage.getItem('posts')!;
    expect(mirror()[0]?.likes).toBe(6);
    await applyExternalPostsChange(before, after);
    expect((await db.posts.get(1))?.likes).toBe(6);
  });

  it('keeps a corrupt value written by another tab aside', async () => {
    await storePosts(makePost({ id: 1 }));
    const { reports, stop } = collectReports();
    await applyExternalPostsChange('[]', 'not json');
    stop();
    expect(reports).toHaveLength(1);
    expect(localStorage.getItem((reports[0] as { key: string }).key)).toBe('not json');
    expect(await db.posts.count()).toBe(1);
  });
});

describe('parseMirror', () => {
  it('tells absent, corrupt and valid values apart', () => {
    expect(parseMirror(null)).toEqual({ kind: 'absent' });
    expect(parseMirror('{')).toEqual({ kind: 'corrupt' });
    expect(parseMirror('null')).toEqual({ kind: 'corrupt' });
    expect(parseMirror('[]')).toEqual({ kind: 'posts', posts: [], skipped: 0, reason: undefined });
  });
});
