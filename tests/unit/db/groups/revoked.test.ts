// Losing access on the device: a pull that hides a category (`gone`) takes its posts off the device in
// the same transaction, with their replies, saved rows, notifications and flags, then out of the `posts`
// copy, the first-paint snapshots and the attachment caches. A reply the member had queued there, or
// half-written in its reply box, becomes a kept draft; a post in a category still seen stays whole.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { applyPullPage } from '../../../../src/db/sync/apply-pull';
import { applyPushResults } from '../../../../src/db/sync/apply-results';
import { switchMember } from '../../../../src/db/sync/member-switch';
import { recentlyRemovedPosts } from '../../../../src/db/storage/removals';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import { createReply, saveReplyDraft } from '../../../../src/db/replies/replies';
import { editPost } from '../../../../src/db/posts/editing';
import { KEPT_DRAFT_SENTENCE, readKeptDrafts } from '../../../../src/db/groups/kept-drafts';
import { writeMirrorNow } from '../../../../src/db/mirror/write';
import { startLegacyMirror, type LegacyMirror } from '../../../../src/db/mirror/scheduler';
import { ATTACHMENT_CACHE, FORUM_SNAPSHOT_CACHE, FORUM_SNAPSHOT_URL, POST_SNAPSHOT_PREFIX } from '../../../../src/db/contracts';
import { attachmentPath } from '../../../../src/db/saved/saved-files';
import type { WireCategory, WireNotification, WireReply } from '../../../../src/shared/protocol';
import { makePost, signInAs } from '../../factories';
import { pullPage, wirePost } from '../../sync/fixtures';
import { fakeCaches } from '../../fake-caches';

const OWNER = 'alice@example.com';
const ROOM = '0b7f6c1e-1d2a-4c3b-9e8f-7a6b5c4d3e2f';
const PRIVATE_ID = 501;
const OPEN_ID = 502;
const FILE = 'a'.repeat(64);

const category = (gone: boolean, seq: number): WireCategory => ({
  id: ROOM,
  name: gone ? '' : 'Vendor room',
  description: '',
  position: gone ? 0 : 6,
  archived: false,
  see: gone ? null : ['g1'],
  post: null,
  gone,
  seq,
});
const reply = (id: string, postId: number, content: string): WireReply => ({
  id,
  postId,
  author: 'Bob',
  authorEmail: '',
  authorRole: 'user',
  content,
  quoteId: null,
  createdAt: 1,
  editedAt: null,
  state: 'visible',
  authorId: 'b0b0b0b0b0b0b0b0',
  seq: 1,
});
const notification = (id: string, postId: number): WireNotification => ({
  id,
  kind: 'replied',
  postId,
  replyId: null,
  actor: 'Bob',
  postTitle: 'A title',
  reason: null,
  createdAt: 1,
  readAt: null,
  actorId: null,
  actorRole: null,
  seq: 1,
});

let caches: ReturnType<typeof fakeCaches>;
let mirror: LegacyMirror;
/** The system notifications the service worker shows (notification-watcher.tsx), by their page. */
let shown: { data: { url: string }; closed: boolean; close: () => void }[];
beforeEach(async () => {
  caches = fakeCaches();
  vi.stubGlobal('caches', caches.api);
  shown = [];
  let asked = 0;
  const registration = {
    getNotifications: async () => {
      asked += 1;
      return shown.filter((notice) => !notice.closed);
    },
  };
  vi.stubGlobal('navigator', { ...navigator, serviceWorker: { getRegistration: async () => registration } });
  await markConnected();
  signInAs(OWNER, 'Alice');
  // The sign-in closes every notification of whoever was here before: these come after it.
  await vi.waitFor(() => expect(asked).toBe(1));
  shown = [`/posts/${PRIVATE_ID}#reply-r-private`, `/posts/${PRIVATE_ID}`, `/posts/${OPEN_ID}`, `/posts/${PRIVATE_ID}0`].map((url) => {
    const notice = { data: { url }, closed: false, close: () => (notice.closed = true) };
    return notice;
  });
  const posts = [
    wirePost(makePost({ id: PRIVATE_ID, category: ROOM, title: 'Vendor prices', authorEmail: OWNER }), {
      attachments: [{ sha256: FILE, name: 'prices.png', mime: 'image/png', size: 10, width: 1, height: 1 }],
    }),
    wirePost(makePost({ id: OPEN_ID, category: 'Trends', title: 'Open thread' })),
  ];
  await applyPullPage(
    pullPage({
      categories: [category(false, 1)],
      posts,
      replies: [reply('r-private', PRIVATE_ID, 'Secret figures'), reply('r-open', OPEN_ID, 'Public figures')],
      saved: [
        { postId: PRIVATE_ID, saved: true, at: 1, seq: 1 },
        { postId: OPEN_ID, saved: true, at: 1, seq: 1 },
      ],
      notifications: [
        notification('00000000-0000-4000-8000-000000000001', PRIVATE_ID),
        notification('00000000-0000-4000-8000-000000000002', OPEN_ID),
      ],
      cursor: 1,
    }),
    OWNER,
  );
  // What outlives IndexedDB: the `posts` copy, the snapshots of the forum and the post's page, its file.
  await writeMirrorNow();
  mirror = startLegacyMirror();
  const snapshots = await caches.api.open(FORUM_SNAPSHOT_CACHE);
  await snapshots.put(FORUM_SNAPSHOT_URL, new Response('Vendor prices'));
  await snapshots.put(`${POST_SNAPSHOT_PREFIX}${PRIVATE_ID}`, new Response('Vendor prices'));
  await snapshots.put(`${POST_SNAPSHOT_PREFIX}${OPEN_ID}`, new Response('Open thread'));
  await (await caches.api.open(ATTACHMENT_CACHE)).put(attachmentPath(FILE), new Response('png'));
});
afterEach(() => {
  mirror.stop();
  vi.unstubAllGlobals();
});

const mirrorIds = () => (JSON.parse(localStorage.getItem('posts') ?? '[]') as { id: number }[]).map((post) => post.id);

describe('a category the member may no longer see', () => {
  it('leaves the device with its posts and everything hanging off them, and nothing of a category still seen', async () => {
    expect(mirrorIds()).toContain(PRIVATE_ID);
    await applyPullPage(pullPage({ categories: [category(true, 2)], cursor: 2 }), OWNER);

    expect((await db.categories.get(ROOM))?.hidden).toBe(1);
    // The member's own post goes too: the server shows it only to the category's groups and admins.
    expect((await db.posts.toArray()).map((post) => post.id)).toEqual([OPEN_ID]);
    expect((await db.replies.toArray()).map((row) => row.id)).toEqual(['r-open']);
    expect((await db.saved.toArray()).map((row) => row.postId)).toEqual([OPEN_ID]);
    expect((await db.notifications.toArray()).map((row) => row.postId)).toEqual([OPEN_ID]);
    expect((await db.posts.get(OPEN_ID))?.comments).toBe(1);
    // Outside IndexedDB, once committed (the `posts` copy at once: it hears `revoked`).
    await vi.waitFor(() => expect(mirrorIds()).toEqual([OPEN_ID]), { timeout: 1_200 });
    expect([...caches.stores.get(FORUM_SNAPSHOT_CACHE)!.keys()]).toEqual([`${POST_SNAPSHOT_PREFIX}${OPEN_ID}`]);
    expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(0);
    // Its system notifications are closed (their title was on the screen); another post's stay.
    await vi.waitFor(() =>
      expect(shown.filter((notice) => !notice.closed).map((notice) => notice.data.url)).toEqual([
        `/posts/${OPEN_ID}`,
        `/posts/${PRIVATE_ID}0`,
      ]),
    );
  });

  it('keeps a queued reply, a half-written one and a queued edit as kept drafts, and sends none of them', async () => {
    await createReply(PRIVATE_ID, 'My unsent answer');
    await createReply(OPEN_ID, 'Still sent');
    await saveReplyDraft(OWNER, PRIVATE_ID, 'Half a thought');
    // The member's own post, edited here and not sent yet.
    await editPost(PRIVATE_ID, { title: 'Vendor prices, revised', content: 'New figures.', category: ROOM });
    expect(await db.outbox.count()).toBe(3);

    await applyPullPage(pullPage({ categories: [category(true, 2)], cursor: 2 }), OWNER);

    expect((await readKeptDrafts(OWNER)).map((draft) => draft.content).sort()).toEqual([
      'Half a thought',
      'My unsent answer',
      'Vendor prices, revised\n\nNew figures.',
    ]);
    expect((await db.outbox.toArray()).map((row) => row.postId)).toEqual([OPEN_ID]);
    expect(await db.meta.where('key').startsWith('replyDraft:').count()).toBe(0);
    expect(KEPT_DRAFT_SENTENCE).toBe('This conversation is no longer available to you. Your reply is kept here so you can copy it.');
  });

  it('keeps a reply the server refused as not found (a post the member may no longer see) the same way', async () => {
    const refuse = async () => {
      const [row] = await db.outbox.toArray();
      await applyPushResults([row!], [{ id: row!.op.id, status: 'refused', code: 'not_found', reason: 'This post no longer exists.' }], 1);
    };
    // Refused before the pull that hides the category: back in the reply box, which becomes a kept draft as the post leaves.
    await createReply(PRIVATE_ID, 'Sent too late');
    await refuse();
    expect(await readKeptDrafts(OWNER)).toEqual([]);
    await applyPullPage(pullPage({ categories: [category(true, 2)], cursor: 2 }), OWNER);
    expect((await readKeptDrafts(OWNER)).map((draft) => draft.content)).toEqual(['Sent too late']);
    // Refused once the post has left (sent before the pull, answered after it): kept at once.
    await applyPullPage(
      pullPage({
        categories: [category(false, 3)],
        posts: [wirePost(makePost({ id: PRIVATE_ID, category: ROOM }), { seq: 3 })],
        cursor: 3,
      }),
      OWNER,
    );
    await createReply(PRIVATE_ID, 'Also too late');
    await db.posts.delete(PRIVATE_ID);
    await refuse();
    expect((await readKeptDrafts(OWNER)).map((draft) => draft.content).sort()).toEqual(['Also too late', 'Sent too late']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('changes nothing while the category is still seen', async () => {
    await applyPullPage(pullPage({ categories: [{ ...category(false, 2), name: 'Vendors' }], cursor: 2 }), OWNER);
    expect(await db.posts.count()).toBe(2);
    expect(await db.replies.count()).toBe(2);
    expect(mirrorIds()).toContain(PRIVATE_ID);
    expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(1);
  });
});

describe('a post the member may no longer see (a pull’s tombstone: deleted, hidden from them, or moved where they may not see it)', () => {
  it('takes its file out of the attachment caches, its snapshots and the `posts` copy, with its notifications', async () => {
    await applyPullPage(pullPage({ removed: [{ id: PRIVATE_ID, seq: 2 }], cursor: 2 }), OWNER);
    expect((await db.posts.toArray()).map((post) => post.id)).toEqual([OPEN_ID]);
    expect((await db.notifications.toArray()).map((row) => row.postId)).toEqual([OPEN_ID]);
    await vi.waitFor(() => expect(mirrorIds()).toEqual([OPEN_ID]), { timeout: 1_200 });
    expect([...caches.stores.get(FORUM_SNAPSHOT_CACHE)!.keys()]).toEqual([`${POST_SNAPSHOT_PREFIX}${OPEN_ID}`]);
    expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(0);
  });

  it('a tombstone of a post this device never held takes nothing', async () => {
    await applyPullPage(pullPage({ removed: [{ id: 999, seq: 2 }], cursor: 2 }), OWNER);
    expect(await db.posts.count()).toBe(2);
    expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(1);
    expect([...caches.stores.get(FORUM_SNAPSHOT_CACHE)!.keys()]).toContain(FORUM_SNAPSHOT_URL);
  });
});

describe('a file its post or reply no longer carries for the member', () => {
  const REPLY_FILE = 'b'.repeat(64);
  const withFile = (state: WireReply['state'], seq: number): WireReply => ({
    ...reply('r-open', OPEN_ID, state === 'visible' ? 'Public figures' : ''),
    state,
    seq,
    ...(state === 'visible'
      ? { attachments: [{ sha256: REPLY_FILE, name: 'figures.png', mime: 'image/png', size: 10, width: 1, height: 1 }] }
      : {}),
  });

  it('a reply hidden from the member or deleted, or a file an edit took off a post: it leaves the attachment caches', async () => {
    await applyPullPage(pullPage({ replies: [withFile('visible', 2)], cursor: 2 }), OWNER);
    await (await caches.api.open(ATTACHMENT_CACHE)).put(attachmentPath(REPLY_FILE), new Response('png'));
    expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(2);
    // Hidden by a moderator: a member's pull carries it without its words or files.
    await applyPullPage(pullPage({ replies: [withFile('hidden', 3)], cursor: 3 }), OWNER);
    await vi.waitFor(() => expect([...caches.stores.get(ATTACHMENT_CACHE)!.keys()]).toEqual([attachmentPath(FILE)]));
    // Its author took the picture off the post: it goes too.
    const edited = wirePost(makePost({ id: PRIVATE_ID, category: ROOM, title: 'Vendor prices', authorEmail: OWNER }), { seq: 4 });
    await applyPullPage(pullPage({ posts: [edited], cursor: 4 }), OWNER);
    await vi.waitFor(() => expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(0));
    expect(await db.posts.count()).toBe(2);
  });
});

describe('another member signing in on the device (offline too, before any pull of theirs)', () => {
  it('finds no post of a private category, nor its file; what the previous member queued there stays queued, as theirs', async () => {
    await createReply(PRIVATE_ID, 'My unsent answer');
    await switchMember({ email: 'bob@example.com', name: 'Bob', role: 'user' });
    expect((await db.posts.toArray()).map((post) => post.id)).toEqual([OPEN_ID]);
    expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(0);
    await vi.waitFor(() => expect(mirrorIds()).toEqual([OPEN_ID]), { timeout: 1_200 });
    // The search index and the `posts` copy's import hear of it, as of every removal.
    expect(await recentlyRemovedPosts()).toContain(PRIVATE_ID);
    // Alice's reply is sent when she signs in here again: not a kept draft.
    expect((await db.outbox.toArray()).map((row) => [row.email, row.postId])).toEqual([[OWNER, PRIVATE_ID]]);
    expect(await readKeptDrafts(OWNER)).toEqual([]);
  });

  it("takes the previous member's pending and rejected posts and their files, and says they were removed", async () => {
    const PENDING_ID = 503;
    const REJECTED_ID = 504;
    const DRAFT_FILE = 'b'.repeat(64);
    await applyPullPage(
      pullPage({
        posts: [
          wirePost(makePost({ id: PENDING_ID, category: 'Trends', title: 'Awaiting review', authorEmail: OWNER, status: 'pending' }), {
            attachments: [{ sha256: DRAFT_FILE, name: 'draft.png', mime: 'image/png', size: 10, width: 1, height: 1 }],
          }),
          wirePost(makePost({ id: REJECTED_ID, category: 'Trends', title: 'Turned down', authorEmail: OWNER, status: 'rejected' })),
        ],
        cursor: 2,
      }),
      OWNER,
    );
    await (await caches.api.open(ATTACHMENT_CACHE)).put(attachmentPath(DRAFT_FILE), new Response('png'));
    await db.saved.put({ email: 'bob@example.com', postId: PRIVATE_ID, saved: true, at: 2 });
    await switchMember({ email: 'bob@example.com', name: 'Bob', role: 'user' });
    expect((await db.posts.toArray()).map((post) => post.id).sort()).toEqual([PRIVATE_ID, OPEN_ID]);
    expect([...caches.stores.get(ATTACHMENT_CACHE)!.keys()].some((key) => String(key).includes(DRAFT_FILE))).toBe(false);
    expect([...(await recentlyRemovedPosts())]).toEqual(expect.arrayContaining([PENDING_ID, REJECTED_ID]));
  });

  it('takes a post of a category this device has not heard of yet (it may be a private space)', async () => {
    const UNKNOWN_ID = 505;
    await applyPullPage(
      pullPage({
        posts: [wirePost(makePost({ id: UNKNOWN_ID, category: '5d0c1b2a-3e4f-4a5b-8c6d-7e8f9a0b1c2d', title: 'Board minutes' }))],
        cursor: 2,
      }),
      OWNER,
    );
    await switchMember({ email: 'bob@example.com', name: 'Bob', role: 'user' });
    expect((await db.posts.toArray()).map((post) => post.id)).toEqual([OPEN_ID]);
    expect([...(await recentlyRemovedPosts())]).toContain(UNKNOWN_ID);
  });

  it('takes the file of a reply to a private post', async () => {
    const REPLY_FILE = 'c'.repeat(64);
    const withFile = {
      ...reply('r-private-file', PRIVATE_ID, 'See the chart'),
      attachments: [{ sha256: REPLY_FILE, name: 'chart.png', mime: 'image/png', size: 10, width: 1, height: 1 }],
    };
    await applyPullPage(pullPage({ replies: [withFile], cursor: 2 }), OWNER);
    await (await caches.api.open(ATTACHMENT_CACHE)).put(attachmentPath(REPLY_FILE), new Response('png'));
    await switchMember({ email: 'bob@example.com', name: 'Bob', role: 'user' });
    expect([...caches.stores.get(ATTACHMENT_CACHE)!.keys()].some((key) => String(key).includes(REPLY_FILE))).toBe(false);
  });

  it('keeps a file that a post the new member may see carries too', async () => {
    // The open post carries the private post's file too (the same bytes).
    const open = (await db.posts.get(OPEN_ID))!;
    await db.posts.put({ ...open, attachments: [{ sha256: FILE, name: 'prices.png', mime: 'image/png', size: 10, width: 1, height: 1 }] });
    await switchMember({ email: 'bob@example.com', name: 'Bob', role: 'user' });
    expect((await db.posts.toArray()).map((post) => post.id)).toEqual([OPEN_ID]);
    expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(1);
  });

  it('keeps a private post the new member saved (readable offline, as every saved post), until their pull says otherwise', async () => {
    await db.saved.put({ email: 'bob@example.com', postId: PRIVATE_ID, saved: true, at: 2 });
    await switchMember({ email: 'bob@example.com', name: 'Bob', role: 'user' });
    expect((await db.posts.toArray()).map((post) => post.id).sort()).toEqual([PRIVATE_ID, OPEN_ID]);
    expect(caches.stores.get(ATTACHMENT_CACHE)!.size).toBe(1);
  });
});
