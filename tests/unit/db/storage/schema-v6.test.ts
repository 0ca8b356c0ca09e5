import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { db, SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5 } from '../../../../src/db/storage/schema';
import { DATABASE_NAME, META_KEYS } from '../../../../src/db/contracts';
import { makePost } from '../../factories';

/** Writes a database exactly as version 5 of the app left it, and closes it. */
async function writeVersion5(meta: { key: string; value: unknown }[]) {
  db.close();
  const v5 = new Dexie(DATABASE_NAME);
  v5.version(1).stores(SCHEMA_V1);
  v5.version(2).stores(SCHEMA_V2);
  v5.version(3).stores(SCHEMA_V3);
  v5.version(4).stores(SCHEMA_V4);
  v5.version(5).stores(SCHEMA_V5);
  const posts = Array.from({ length: 4 }, (_, i) => ({ ...makePost({ likes: i, status: i % 2 ? 'pending' : 'approved' }), rev: i + 1 }));
  await v5.table('posts').bulkAdd(posts);
  await v5.table('meta').bulkPut(meta);
  expect(v5.verno).toBe(5);
  v5.close();
  return posts;
}

describe('schema version 6 (moderation and notifications)', () => {
  it('keeps every post as it was, adds the new tables and sends a connected device back to pull from the start', async () => {
    const meta = [
      { key: META_KEYS.seeded, value: 1 },
      { key: META_KEYS.syncConnected, value: 1_700_000_000_000 },
      { key: META_KEYS.syncCursor, value: 321 },
    ];
    const posts = await writeVersion5(meta);
    await db.open();
    expect(db.verno).toBe(13);
    expect(await db.posts.orderBy('id').toArray()).toEqual(posts);
    expect(await db.meta.get(META_KEYS.syncCursor)).toEqual({ key: META_KEYS.syncCursor, value: 0 });
    expect(await db.meta.get(META_KEYS.syncConnected)).toEqual(meta[1]);
    expect(await db.notifications.count()).toBe(0);
    expect(await db.flags.count()).toBe(0);
    expect(await db.likeDays.count()).toBe(0);
  });

  it('indexes notifications by member and unread, flags by target, flagger and open', async () => {
    await writeVersion5([{ key: META_KEYS.seeded, value: 1 }]);
    await db.open();
    expect(await db.meta.get(META_KEYS.syncCursor)).toBeUndefined();
    const base = { kind: 'approved' as const, postId: 1, replyId: null, actor: null, postTitle: 'T', reason: null, readAt: null };
    await db.notifications.bulkAdd([
      { ...base, id: 'a', email: 'm@example.com', createdAt: 1, unread: 1 },
      { ...base, id: 'b', email: 'm@example.com', createdAt: 2, unread: 0, readAt: 3 },
      { ...base, id: 'c', email: 'o@example.com', createdAt: 3, unread: 1 },
    ]);
    expect(await db.notifications.where('[email+unread]').equals(['m@example.com', 1]).count()).toBe(1);
    const flag = { postId: 1, replyId: null, reason: 'spam' as const, text: '', flagger: 'M', createdAt: 1 };
    await db.flags.bulkAdd([
      { ...flag, id: 'f1', flaggerEmail: 'm@example.com', target: 'post:1', state: 'open', open: 1 },
      { ...flag, id: 'f2', flaggerEmail: 'o@example.com', target: 'post:1', state: 'dismissed', open: 0 },
    ]);
    expect(await db.flags.where('[flaggerEmail+target]').equals(['o@example.com', 'post:1']).count()).toBe(1);
    expect(await db.flags.where('[open+target]').equals([1, 'post:1']).count()).toBe(1);
  });
});
