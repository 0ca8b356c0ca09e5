// Who is told by their levels on a local-only device (issue 62): the device's store answers the
// levels its members set (DexieStore.postFollowers), the shared rules tell the watchers of a post,
// its category or a tag and leave out whoever muted it, and a further reply collapses into the
// watcher's unread notification of the post: through the store, and through the operations
// (setFollowLevel, createReply, approvePost). A connected device tells nobody: its server does.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { DexieStore } from '../../../src/db/ops/dexie-store';
import { markConnected } from '../../../src/db/ops/sync-meta';
import { tellUnmuted, tellWatchers } from '../../../src/shared/ops/rules';
import { notificationsForReply, notificationTitle } from '../../../src/shared/moderation';
import type { FollowKind, FollowLevel } from '../../../src/shared/follows';
import { makePost, signInAs, signInAsAdmin, storePosts } from '../factories';
import { setFollowLevel } from '../../../src/db/follows/follows';
import { createReply } from '../../../src/db/replies/replies';
import { approvePost, createPost } from '../../../src/db/posts/posts';

const WRITER = { email: 'writer@example.com', role: 'user' };
const START = Date.UTC(2026, 2, 12, 10);
let clock = START;

beforeEach(() => {
  clock = START;
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => vi.restoreAllMocks());

const follow = (email: string, kind: FollowKind, target: string, level: FollowLevel) =>
  db.follows.put({ email, kind, target, level, at: START });
const titles = async (email: string) =>
  (await db.notifications.where('[email+createdAt]').between([email, 0], [email, Infinity]).toArray()).map(
    (row) => `${row.kind}: ${notificationTitle(row)}`,
  );

/** A reply by the writer in `post`, told as the reply operation tells it: the post's author, then its watchers. */
async function replyIn(post: ReturnType<typeof makePost>, id: string) {
  const store = new DexieStore(signInAs(WRITER.email, 'Wren Writer'));
  const reply = { id, author: 'Wren Writer', authorEmail: WRITER.email };
  const about = { post, replyId: id, author: reply };
  const told = await tellUnmuted(store, post, notificationsForReply(post, reply, null, WRITER), clock);
  await tellWatchers(store, WRITER, about, clock, told);
  clock += 1_000;
}

describe('who is told by their levels on a local-only device', () => {
  it('watchers of the post, its category or a tag hear each reply, collapsed into one; Normal, muted and the writer hear nothing', async () => {
    const [post] = await storePosts(
      makePost({ authorEmail: 'author@example.com', title: 'Sampling', category: 'Trends', tags: ['Budget'] }),
    );
    await follow('post@example.com', 'post', String(post!.id), 'watching');
    await follow('category@example.com', 'category', 'Trends', 'watching');
    await follow('tag@example.com', 'tag', 'budget', 'watching');
    await follow('muted@example.com', 'category', 'Trends', 'muted');
    await follow('muted@example.com', 'tag', 'budget', 'watching');
    await follow('normal@example.com', 'post', String(post!.id), 'normal');
    await follow('normal@example.com', 'category', 'Trends', 'watching');
    await follow(WRITER.email, 'post', String(post!.id), 'watching');
    await replyIn(post!, '00000000-0000-4000-8000-000000000001');
    for (const email of ['post@example.com', 'category@example.com', 'tag@example.com'])
      expect(await titles(email), email).toEqual(['watching: Wren Writer replied in “Sampling”']);
    await replyIn(post!, '00000000-0000-4000-8000-000000000002');
    await replyIn(post!, '00000000-0000-4000-8000-000000000003');
    expect(await titles('post@example.com')).toEqual(['watching: 3 new replies in “Sampling”']);
    const [row] = await db.notifications.where('[email+unread]').equals(['tag@example.com', 1]).toArray();
    expect(row).toMatchObject({ replyId: '00000000-0000-4000-8000-000000000003', count: 3, createdAt: START + 2_000 });
    // The post's author hears "replied" of each reply (their own rule), and nothing twice.
    expect(await titles('author@example.com')).toHaveLength(3);
    for (const email of ['muted@example.com', 'normal@example.com', WRITER.email]) expect(await titles(email), email).toEqual([]);
  });

  it('the post’s author who muted their own post hears nothing of its replies', async () => {
    const [post] = await storePosts(makePost({ authorEmail: 'author@example.com', title: 'Quiet please' }));
    await follow('author@example.com', 'post', String(post!.id), 'muted');
    await replyIn(post!, '00000000-0000-4000-8000-000000000004');
    expect(await titles('author@example.com')).toEqual([]);
  });

  it('a connected device tells no watcher: its server does', async () => {
    const [post] = await storePosts(makePost({ title: 'Connected', category: 'Trends' }));
    await follow('category@example.com', 'category', 'Trends', 'watching');
    await markConnected();
    await replyIn(post!, '00000000-0000-4000-8000-000000000005');
    expect(await db.notifications.count()).toBe(0);
  });

  it('through the operations: the watcher of a category hears of its new post and each reply, collapsed; a member who muted it hears nothing', async () => {
    signInAs('watcher@example.com', 'Wanda Watcher');
    await setFollowLevel('category', 'Trends', 'watching');
    signInAs('muter@example.com', 'Moe Muter');
    await setFollowLevel('category', 'Trends', 'muted');
    signInAs('author@example.com', 'Ann Author');
    const post = await createPost({ title: 'Panels in spring', content: 'What do you see?', category: 'Trends' });
    signInAsAdmin();
    await approvePost(post.id);
    signInAs('muter@example.com', 'Moe Muter');
    await createReply(post.id, 'I muted this, but I reply.');
    clock += 1_000;
    signInAs('replier@example.com', 'Rob Replier');
    await createReply(post.id, 'Two.');
    clock += 1_000;
    await createReply(post.id, 'Three.');
    expect(await titles('watcher@example.com')).toEqual([
      'watching: Ann Author posted “Panels in spring”',
      'watching: 3 new replies in “Panels in spring”',
    ]);
    // The muter wrote in it, so watches it by their own level now: their own reply tells them nothing, the others' do.
    expect(await titles('muter@example.com')).toEqual(['watching: 2 new replies in “Panels in spring”']);
    // The author watches what they wrote, and hears "replied" of each reply (never twice).
    expect((await titles('author@example.com')).filter((title) => title.startsWith('watching'))).toEqual([]);
  });
});
