// Schema version 7 (protocol 5): a database of version 6 opens with every post, reply and account as
// it was, gains the saved, preferences and seen tables and the arrival indexes, and a connected
// device pulls again from the start (so it gets the saved posts and preferences it never asked for).
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { db, SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6 } from '../../../../src/db/storage/schema';
import { DATABASE_NAME, META_KEYS } from '../../../../src/db/contracts';
import { newPostIds } from '../../../../src/db/posts/whats-new';
import { makePost } from '../../factories';

/** Writes a database exactly as version 6 of the app left it, and closes it. */
async function writeVersion6(meta: { key: string; value: unknown }[]) {
  db.close();
  const v6 = new Dexie(DATABASE_NAME);
  v6.version(1).stores(SCHEMA_V1);
  v6.version(2).stores(SCHEMA_V2);
  v6.version(3).stores(SCHEMA_V3);
  v6.version(4).stores(SCHEMA_V4);
  v6.version(5).stores(SCHEMA_V5);
  v6.version(6).stores(SCHEMA_V6);
  const posts = Array.from({ length: 4 }, (_, i) => ({ ...makePost({ id: i + 1, status: i % 2 ? 'pending' : 'approved' }), rev: i + 1 }));
  await v6.table('posts').bulkAdd(posts);
  const reply = {
    id: 'r1',
    postId: 1,
    author: 'A',
    authorEmail: 'a@example.com',
    authorRole: 'user',
    content: 'Hi',
    quoteId: null,
    createdAt: 1,
    editedAt: null,
    state: 'visible',
    listed: 1,
  };
  await v6.table('replies').add(reply);
  await v6.table('accounts').add({ email: 'a@example.com', name: 'A', createdAt: 7 });
  await v6.table('meta').bulkPut(meta);
  expect(v6.verno).toBe(6);
  v6.close();
  return { posts, reply };
}

describe('schema version 7 (saved posts, preferences, arrivals)', () => {
  it('keeps every row as it was, adds the new tables and sends a connected device back to pull from the start', async () => {
    const meta = [
      { key: META_KEYS.seeded, value: 1 },
      { key: META_KEYS.syncConnected, value: 1_700_000_000_000 },
      { key: META_KEYS.syncCursor, value: 321 },
    ];
    const { posts, reply } = await writeVersion6(meta);
    await db.open();
    expect(db.verno).toBe(13);
    expect(await db.posts.orderBy('id').toArray()).toEqual(posts);
    expect(await db.replies.toArray()).toEqual([{ ...reply, rev: expect.any(Number) }]);
    expect(await db.accounts.get('a@example.com')).toEqual({ email: 'a@example.com', name: 'A', createdAt: 7 });
    expect(await db.meta.get(META_KEYS.syncCursor)).toEqual({ key: META_KEYS.syncCursor, value: 0 });
    expect(await db.saved.count()).toBe(0);
    expect(await db.preferences.count()).toBe(0);
    expect(await db.seen.count()).toBe(0);
    // Rows from before have no arrival time: never new.
    expect(await newPostIds('m@example.com', 1)).toEqual([]);
  });

  it('a local-only device keeps no cursor; the new indexes answer', async () => {
    await writeVersion6([{ key: META_KEYS.seeded, value: 1 }]);
    await db.open();
    expect(await db.meta.get(META_KEYS.syncCursor)).toBeUndefined();
    await db.saved.bulkAdd([
      { email: 'm@example.com', postId: 1, saved: true, at: 5 },
      { email: 'm@example.com', postId: 3, saved: true, at: 9 },
      { email: 'o@example.com', postId: 1, saved: true, at: 7 },
    ]);
    const mine = await db.saved.where('[email+at]').between(['m@example.com', 0], ['m@example.com', Infinity]).reverse().toArray();
    expect(mine.map((row) => row.postId)).toEqual([3, 1]);
    await db.posts.update(1, { arrivedAt: 50 });
    await db.posts.update(3, { arrivedAt: 10 });
    expect(await db.posts.where('[status+arrivedAt]').between(['approved', 20], ['approved', Infinity]).primaryKeys()).toEqual([1]);
    await db.replies.update('r1', { arrivedAt: 60 });
    expect(await db.replies.where('[postId+arrivedAt]').between([1, 20], [1, Infinity]).count()).toBe(1);
    await db.seen.put({ email: 'm@example.com', item: 'post:1' });
    expect(await db.seen.get(['m@example.com', 'post:1'])).toBeDefined();
    await db.preferences.put({ email: 'm@example.com', theme: 'dark' });
    expect(await db.preferences.get('m@example.com')).toEqual({ email: 'm@example.com', theme: 'dark' });
  });
});
