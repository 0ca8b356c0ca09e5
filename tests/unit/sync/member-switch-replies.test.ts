import { describe, expect, it } from 'vitest';
import { db, type ReplyRow } from '../../../src/db/storage/schema';
import { switchMember } from '../../../src/db/sync/member-switch';
import { markConnected, SYNC_META } from '../../../src/db/ops/sync-meta';
import { makeSession } from '../../../src/db/members/session-rules';
import { makePost } from '../factories';
import { applyPullPages } from '../../../src/db/sync/apply-pull';
import { onSessionChange } from '../../../src/db/members/session';
import { createApi } from '../../../src/sync/api';
import { signIn } from '../../../src/sync/auth';
import { pullPage, wirePost } from './fixtures';
import { PASSWORD, startServer } from './test-server';

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

describe('the switch and the sign-in', () => {
  it('signing in as another member drops the previous one’s private posts before the app hears of the new session', async () => {
    await markConnected();
    await db.meta.put({ key: SYNC_META.owner, value: 'omar@example.com' });
    const pending = {
      ...makePost({ id: 7, status: 'pending', authorEmail: 'omar@example.com' }),
      sync: { seq: 3, likes: 0, status: 'pending' as const },
    };
    await db.posts.add(pending);
    const server = await startServer();
    await server.account('jane@example.com');
    // What the app reads the moment it learns of the session: it must already be Jane's device.
    let seenAtSave: number[] | undefined;
    const unsubscribe = onSessionChange((session) => {
      if (session?.email !== 'jane@example.com') return;
      void db.posts
        .toCollection()
        .primaryKeys()
        .then((ids) => (seenAtSave ??= ids as number[]));
    });
    await signIn('jane@example.com', PASSWORD, createApi(server.device()));
    unsubscribe();
    await expect.poll(() => seenAtSave).toEqual([]);
    expect((await db.meta.get(SYNC_META.owner))?.value).toBe('jane@example.com');
  });

  it('a page pulled for the previous member is not stored once the device holds another', async () => {
    await db.meta.put({ key: SYNC_META.owner, value: 'member@example.com' });
    const page = pullPage({
      cursor: 9,
      posts: [wirePost(makePost({ id: 8, status: 'pending', authorEmail: 'someone@example.com' }), { seq: 9 })],
    });
    expect(await applyPullPages([page], 'admin@example.com', 0)).toEqual({ changed: 0 });
    expect(await db.posts.count()).toBe(0);
    expect(await applyPullPages([page], 'member@example.com', 0)).toEqual({ changed: 1 });
  });
});
