import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { db, SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, type OutboxRow } from '../../../../src/db/storage/schema';
import { DATABASE_NAME, META_KEYS } from '../../../../src/db/contracts';
import { createReply, recordView } from '../../../../src/db/replies/replies';
import { makePost, signInAsMember } from '../../factories';

/** Writes a database exactly as version 3 of the app left it, and closes it. */
async function writeVersion3(meta: { key: string; value: unknown }[], outbox: OutboxRow[], comments = (i: number) => i % 4) {
  db.close();
  const v3 = new Dexie(DATABASE_NAME);
  v3.version(1).stores(SCHEMA_V1);
  v3.version(2).stores(SCHEMA_V2);
  v3.version(3).stores(SCHEMA_V3);
  const posts = Array.from({ length: 30 }, (_, i) => ({ ...makePost({ likes: i, comments: comments(i) }), rev: i + 1 }));
  await v3.table('posts').bulkAdd(posts);
  await v3.table('meta').bulkPut(meta);
  await v3.table('outbox').bulkAdd(outbox);
  expect(v3.verno).toBe(3);
  v3.close();
  return posts;
}

const queued = (postId: number): OutboxRow => ({
  op: { id: `op-${postId}`, type: 'like', postId },
  postId,
  email: 'member@example.com',
  at: 1_700_000_000_000,
});

describe('schema version 4 (replies and views)', () => {
  it('opens a version 3 database with its posts, meta and outbox intact, the sync cursor back at 0 and no comments yet', async () => {
    const meta = [
      { key: META_KEYS.seeded, value: 1 },
      { key: META_KEYS.changes, value: 70 },
      { key: META_KEYS.syncConnected, value: 1_700_000_000_000 },
      { key: META_KEYS.syncCursor, value: 4_321 },
      { key: 'draft:member@example.com', value: { title: 'Kept', content: 'Half' } },
    ];
    const outbox = [queued(1), queued(2)];
    const posts = await writeVersion3(meta, outbox);

    await db.open();
    expect(db.verno).toBe(13);
    // Every field kept but `comments`: no post has a visible reply yet (an older build's count is gone).
    expect(posts.some((post) => post.comments > 0)).toBe(true);
    expect(await db.posts.orderBy('id').toArray()).toEqual(posts.map((post) => ({ ...post, comments: 0 })));
    expect(await db.meta.get(META_KEYS.syncCursor)).toEqual({ key: META_KEYS.syncCursor, value: 0 });
    // The write counter moved, so the posts mirror is written again with the new counts.
    expect(await db.meta.get(META_KEYS.changes)).toEqual({ key: META_KEYS.changes, value: 71 });
    const others = meta.filter((row) => row.key !== META_KEYS.syncCursor && row.key !== META_KEYS.changes);
    expect(await db.meta.bulkGet(others.map((row) => row.key))).toEqual(others);
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(outbox.map((row, i) => ({ ...row, seq: i + 1 })));
    expect(await db.replies.count()).toBe(0);
    expect(await db.viewed.count()).toBe(0);

    // The new tables work at once, and a connected write queues after the kept operations.
    signInAsMember();
    // A post the server sent (a post only on this device keeps its replies and views here).
    await db.posts.update(posts[0]!.id, { sync: { seq: 1, likes: posts[0]!.likes, status: posts[0]!.status } });
    const reply = await createReply(posts[0]!.id, 'First reply after the upgrade');
    expect(await recordView(posts[0]!.id)).toBe(true);
    expect((await db.posts.get(posts[0]!.id))!.comments).toBe(1);
    expect((await db.outbox.orderBy('seq').toArray()).map((row) => row.op.type)).toEqual(['like', 'like', 'reply', 'view']);
    expect((await db.outbox.orderBy('seq').last())!.seq).toBe(4);
    expect((await db.replies.get(reply.id))!.listed).toBe(1);
  });

  it('adds no cursor to a device that never had one (local-only), and no write when no post had comments', async () => {
    const posts = await writeVersion3([{ key: META_KEYS.seeded, value: 1 }], [], () => 0);
    await db.open();
    expect(db.verno).toBe(13);
    expect(await db.posts.orderBy('id').toArray()).toEqual(posts);
    expect(await db.meta.get(META_KEYS.syncCursor)).toBeUndefined();
    expect(await db.meta.count()).toBe(1);
  });
});
