import { describe, expect, it } from 'vitest';
import { db, type ReplyRow } from '../../../src/db/storage/schema';
import { switchMember } from '../../../src/db/sync/member-switch';
import { markConnected, SYNC_META } from '../../../src/db/ops/sync-meta';
import { makeSession } from '../../../src/db/members/session-rules';
import { makePost } from '../factories';

const reply = (id: string, postId: number, synced: boolean): ReplyRow => ({
  id,
  postId,
  author: 'Replier',
  authorEmail: 'replier@example.com',
  authorRole: 'user',
  content: `Reply ${id}`,
  quoteId: null,
  createdAt: 1_800_000_000_000,
  editedAt: null,
  state: 'visible',
  listed: 1,
  ...(synced ? { sync: { seq: 5, content: `Reply ${id}`, state: 'visible' as const, editedAt: null } } : {}),
});

describe('another member signing in on a connected device', () => {
  it('drops the server’s replies and recounts their posts: comments equal the replies left', async () => {
    await markConnected();
    await db.meta.put({ key: SYNC_META.owner, value: 'first@example.com' });
    const synced = { seq: 4, likes: 0, status: 'approved' as const };
    await db.posts.bulkAdd([
      { ...makePost({ id: 1, comments: 3 }), sync: synced },
      { ...makePost({ id: 2, comments: 1 }), sync: synced },
    ]);
    await db.replies.bulkAdd([reply('a', 1, true), reply('b', 1, true), reply('queued', 1, false), reply('c', 2, true)]);
    expect(await switchMember(makeSession('second@example.com', 'Second'))).toBe(true);
    expect((await db.replies.toArray()).map((row) => row.id)).toEqual(['queued']);
    expect((await db.posts.orderBy('id').toArray()).map((post) => post.comments)).toEqual([1, 0]);
  });
});
