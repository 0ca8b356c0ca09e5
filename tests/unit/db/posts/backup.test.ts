import { describe, expect, it, vi } from 'vitest';
import { exportPosts, importPosts, readBackup } from '../../../../src/db/posts/backup';
import { MERGE_CHUNK_SIZE } from '../../../../src/db/posts/merge';
import { db } from '../../../../src/db/storage/schema';
import { BACKUP_VERSION, POST_FIELDS } from '../../../../src/db/contracts';
import type { Post } from '../../../../src/db/types';
import { makePost, signInAs, signInAsAdmin, signInAsMember, storePosts } from '../../factories';

const fileOf = (value: unknown) => new Blob([typeof value === 'string' ? value : JSON.stringify(value)], { type: 'application/json' });
const backupOf = (posts: Post[]) => ({ format: 'insight-exchange-backup', version: 1, posts });

describe('exportPosts', () => {
  it('lets an admin export every post, with exactly the spec fields', async () => {
    await storePosts(...Array.from({ length: 2_500 }, (_, i) => makePost({ id: i + 1, status: i % 2 ? 'pending' : 'approved' })));
    signInAsAdmin();
    const progress: number[] = [];
    const result = await exportPosts('all', { onProgress: ({ done }) => progress.push(done) });
    const data = JSON.parse(await result.blob.text()) as { format: string; posts: Post[]; count: number };
    expect(data.format).toBe('insight-exchange-backup');
    expect(data.count).toBe(2_500);
    expect(data.posts.map((post) => post.id)).toEqual(Array.from({ length: 2_500 }, (_, i) => i + 1));
    expect(Object.keys(data.posts[0]!)).toEqual([...POST_FIELDS]);
    expect(progress).toEqual([1_000, 2_000, 2_500]);
    expect(result.filename).toMatch(/^insight-exchange-posts-\d{4}-\d{2}-\d{2}\.json$/);
  });

  it("lets a member export only their own posts, and not everyone's", async () => {
    await storePosts(
      makePost({ id: 1, authorEmail: 'member@example.com', status: 'rejected' }),
      makePost({ id: 2, authorEmail: 'other@example.com' }),
      makePost({ id: 3, authorEmail: 'member@example.com' }),
    );
    signInAsMember();
    const mine = JSON.parse(await (await exportPosts('mine')).blob.text()) as { posts: Post[] };
    expect(mine.posts.map((post) => post.id)).toEqual([1, 3]);
    await expect(exportPosts('all')).rejects.toMatchObject({ code: 'admins_only' });
  });
});

describe('importPosts', () => {
  it('round-trips an export into an empty database', async () => {
    const originals = await storePosts(...Array.from({ length: 30 }, (_, i) => makePost({ id: 100 + i, likes: i })));
    signInAsAdmin();
    const file = (await exportPosts('all')).blob;
    await db.posts.clear();
    const result = await importPosts(file);
    expect(result).toMatchObject({ added: 30, updated: 0, cancelled: false });
    const rows = await db.posts.orderBy('id').toArray();
    expect(rows.map(({ rev: _rev, arrivedAt: _arrivedAt, ...post }) => post)).toEqual(originals);
  });

  it('is additive: merges known ids (higher counters, reviewed status) and deletes nothing', async () => {
    await storePosts(
      makePost({ id: 1, likes: 10, views: 5, status: 'pending' }),
      makePost({ id: 2, likes: 3, status: 'approved' }),
      makePost({ id: 3 }),
    );
    signInAsAdmin();
    const result = await importPosts(
      fileOf(
        backupOf([
          makePost({ id: 1, likes: 4, views: 50, status: 'approved' }),
          makePost({ id: 2, likes: 9, status: 'rejected' }),
          makePost({ id: 4, title: 'New' }),
        ]),
      ),
    );
    expect(result).toMatchObject({ added: 1, updated: 2 });
    const rows = await db.posts.orderBy('id').toArray();
    expect(rows.map((post) => [post.id, post.likes, post.views, post.status])).toEqual([
      [1, 10, 50, 'approved'],
      [2, 9, 0, 'approved'],
      [3, 0, 0, 'approved'],
      [4, 0, 0, 'approved'],
    ]);
  });

  it('reads stored rows only for ids it already has, across chunks whose id ranges interleave stored posts', async () => {
    // Stored: every third id of 1..3,000, some with more likes than the file.
    await storePosts(...Array.from({ length: 1_000 }, (_, i) => makePost({ id: 3 * i + 1, likes: 7, status: 'pending' })));
    signInAsAdmin();
    const reads = vi.spyOn(db.posts, 'bulkGet');
    const file = Array.from({ length: 2_500 }, (_, i) => makePost({ id: 2_500 - i, likes: 1, status: 'approved' }));
    const result = await importPosts(fileOf(backupOf(file)));
    const read = reads.mock.calls.flatMap(([keys]) => keys as number[]);
    reads.mockRestore();
    // ids 1, 4, …, 2,500 were stored: 834 of them; each read once, and no other id.
    expect(read.length).toBe(834);
    expect(read.every((id) => id % 3 === 1)).toBe(true);
    expect(result).toMatchObject({ added: 1_666, updated: 834, unchanged: 0, processed: 2_500 });
    const merged = await db.posts.bulkGet([1, 2, 2_500, 2_998]);
    expect(merged.map((post) => [post?.likes, post?.status])).toEqual([
      [7, 'approved'],
      [1, 'approved'],
      [7, 'approved'],
      [7, 'pending'],
    ]);
    expect(await db.posts.count()).toBe(1_000 + 1_666);
  });

  it('checks the whole file before writing anything', async () => {
    signInAsAdmin();
    const good = Array.from({ length: 1_500 }, (_, i) => makePost({ id: i + 1 }));
    const broken = [...good, { id: 99_999, title: 'No content' }];
    await expect(importPosts(fileOf(backupOf(broken as Post[])))).rejects.toMatchObject({
      title: 'Backup not imported',
      message: 'Post 1501 (id 99999) has no content. Nothing was imported.',
    });
    await expect(importPosts(fileOf('{ not json'))).rejects.toMatchObject({ code: 'invalid' });
    await expect(importPosts(fileOf({ hello: 'world' }))).rejects.toMatchObject({ message: expect.stringContaining('no list of posts') });
    await expect(importPosts(fileOf([{ ...makePost({ id: 1 }), status: 'published' }]))).rejects.toMatchObject({
      message: expect.stringContaining('no valid status'),
    });
    expect(await db.posts.count()).toBe(0);
  });

  it('writes in chunks (MERGE_CHUNK_SIZE) with progress, and a cancel leaves whole chunks only', async () => {
    const admin = signInAsAdmin();
    const chunk = MERGE_CHUNK_SIZE;
    const writes = vi.spyOn(db.posts, 'bulkAdd');
    // The admin's own: never packed (packed.test.ts), so every post is a row.
    const posts = Array.from({ length: 2 * chunk + chunk / 2 }, (_, i) => makePost({ id: i + 1, authorEmail: admin.email }));
    const controller = new AbortController();
    const seen: number[] = [];
    const result = await importPosts(fileOf(backupOf(posts)), {
      signal: controller.signal,
      onProgress: ({ phase, done }) => {
        if (phase !== 'writing') return;
        seen.push(done);
        if (done >= 2 * chunk) controller.abort();
      },
    });
    expect(seen).toEqual([0, chunk, 2 * chunk]);
    expect(result).toMatchObject({ cancelled: true, processed: 2 * chunk, added: 2 * chunk });
    expect(await db.posts.count()).toBe(2 * chunk);
    // A chunk's rows are handed to IndexedDB a slice at a time: no write call clones a whole chunk in one task.
    expect(writes.mock.calls.map(([rows]) => rows.length)).toEqual(Array.from({ length: (2 * chunk) / 1000 }, () => 1000));
  });

  it('accepts a bare array of posts, like the legacy posts key', async () => {
    signInAsAdmin();
    await importPosts(fileOf([makePost({ id: 7 })]));
    expect(await db.posts.get(7)).toBeDefined();
  });

  it('is for admins only, checked inside the data layer', async () => {
    signInAs('member@example.com');
    await expect(importPosts(fileOf([makePost({ id: 7 })]))).rejects.toMatchObject({ code: 'admins_only' });
    expect(readBackup(JSON.stringify([makePost({ id: 7 })])).posts).toHaveLength(1);
    expect(await db.posts.count()).toBe(0);
  });
});

describe('hostile backups', () => {
  const refusal =
    (posts: unknown[], extra: Record<string, unknown> = {}) =>
    () =>
      readBackup(JSON.stringify({ ...backupOf(posts as Post[]), ...extra }));

  it('accepts only a whole-number version up to the known one ("999" as a string is refused)', () => {
    expect(refusal([makePost()], { version: '999' })).toThrow('This backup has no valid version number. Nothing was imported.');
    expect(refusal([makePost()], { version: BACKUP_VERSION + 1 })).toThrow('newer version');
    expect(refusal([makePost()], { version: 1.5 })).toThrow('no valid version');
    expect(readBackup(JSON.stringify(backupOf([makePost()]))).posts).toHaveLength(1);
  });

  it('refuses ids near the largest safe integer, and past the year 2100', () => {
    expect(refusal([makePost({ id: Number.MAX_SAFE_INTEGER })])).toThrow('Post 1 has no valid id');
    expect(refusal([makePost({ id: Date.UTC(2100, 0, 2) })])).toThrow('Post 1 has no valid id');
    expect(readBackup(JSON.stringify(backupOf([makePost({ id: Date.UTC(2027, 0, 1) })]))).posts).toHaveLength(1);
  });

  it('applies the form limits: an unbroken 300,000-character title or author is refused with the limit message', () => {
    expect(refusal([makePost({ id: 5, title: 'T'.repeat(300_000) })])).toThrow(
      'Post 1 (id 5) is refused: Title can be at most 200 characters (it has 300,000). Nothing was imported.',
    );
    expect(refusal([makePost({ id: 5, author: 'AV'.repeat(50_000) })])).toThrow('Author can be at most 100 characters');
    expect(refusal([makePost({ id: 5, category: 'C'.repeat(61) })])).toThrow('Category can be at most 60 characters');
    expect(refusal([makePost({ id: 5, content: 'c'.repeat(4_100_000) })])).toThrow('Content can be at most 20,000 characters');
  });

  it("stores an upper-case authorEmail as sign-in compares it, so it shows in that member's posts and export", async () => {
    signInAsAdmin();
    await importPosts(fileOf(backupOf([makePost({ id: 9, authorEmail: '  Jane.Doe@Example.COM ' })])));
    expect((await db.posts.get(9))?.authorEmail).toBe('jane.doe@example.com');
    signInAs('JANE.DOE@example.com');
    expect((await exportPosts('mine')).count).toBe(1);
  });
});
