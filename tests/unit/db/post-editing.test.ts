// Editing and deleting posts on a local-only device: the edit rule in each status, who may edit or
// delete, Undo within its window and not after, replies with them, and the `posts` mirror, the
// search index and an older tab's stale copy never bringing a deleted post back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearEditDraft, deletePost, editPost, loadEditDraft, undoDeletion } from '../../../src/db/posts/editing';
import { getPost } from '../../../src/db/posts/posts';
import { createReply, deleteReply, listReplies, recordView } from '../../../src/db/replies/replies';
import { applyExternalPostsChange, importLegacyPosts } from '../../../src/db/mirror/import';
import { writeMirrorNow } from '../../../src/db/mirror/legacy-mirror';
import { db, type PostRow } from '../../../src/db/storage/schema';
import { listUndoEntries, UNDO_GRACE_MS } from '../../../src/db/ops/undo';
import { SearchEngine } from '../../../src/db/search/engine';
import { idbPostSource } from '../../../src/db/search/idb-source';
import { editDraftMetaKey, POST_FIELDS } from '../../../src/db/contracts';
import { ERRORS } from '../../../src/shared/errors';
import { UNDO_WINDOW_MS } from '../../../src/shared/post-rules';
import type { Post } from '../../../src/db/types';
import { makePost, signInAs, signInAsAdmin, signInAsMember, storePosts } from '../factories';

const AUTHOR = 'member@example.com';
const EDIT = { title: '  Sampling, revised  ', content: '  Better thoughts.  ', category: 'Trends' };

let clock = 1_800_000_000_000;
beforeEach(() => {
  clock = 1_800_000_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const row = (id: number) => db.posts.get(id);
const mirrored = () => JSON.parse(localStorage.getItem('posts') ?? '[]') as Post[];

describe('editing a post', () => {
  it('an approved post stays approved, shows "edited" and keeps the version it replaced (shown to admins only)', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR, status: 'approved', tags: ['panels'] }));
    const before = (await row(post!.id))!;
    signInAsMember();
    const edited = await editPost(post!.id, EDIT);
    expect(edited).toMatchObject({
      title: 'Sampling, revised',
      content: 'Better thoughts.',
      category: 'Trends',
      status: 'approved',
      tags: ['panels'],
    });
    expect(edited.editedAt).toBe(clock);
    expect(edited.previous).toBeNull(); // a member is never shown the version before
    const stored = (await row(post!.id))!;
    expect(stored.previous).toEqual({
      title: before.title,
      content: before.content,
      category: before.category,
      tags: ['panels'],
      editedAt: null,
    });
    expect(stored.rev).toBeGreaterThan(before.rev ?? 0);
    signInAsAdmin();
    expect((await getPost(post!.id))!.previous).toMatchObject({ title: before.title });
  });

  it('a new title is the one its notifications name, every member’s on this device (as on the server); others stay', async () => {
    const [post, other] = await storePosts(
      makePost({ authorEmail: AUTHOR, status: 'approved', title: 'Codename Osprey' }),
      makePost({ id: 7, status: 'approved', title: 'Another post' }),
    );
    const note = (id: string, email: string, postId: number, postTitle: string) =>
      ({
        id,
        email,
        kind: 'mentioned',
        postId,
        replyId: null,
        actor: 'Mia',
        postTitle,
        reason: null,
        createdAt: 1,
        readAt: null,
        unread: 1,
      }) as const;
    await db.notifications.bulkAdd([
      note('n1', 'nora@example.com', post!.id, 'Codename Osprey'),
      note('n2', AUTHOR, post!.id, 'Codename Osprey'),
      note('n3', 'nora@example.com', other!.id, 'Another post'),
    ]);
    signInAsMember();
    await editPost(post!.id, EDIT);
    expect((await db.notifications.orderBy('id').toArray()).map((one) => one.postTitle)).toEqual([
      'Sampling, revised',
      'Sampling, revised',
      'Another post',
    ]);
  });

  it('a rejected post goes back to review (pending, resubmitted); a pending one stays pending', async () => {
    const [rejected, pending] = await storePosts(
      makePost({ authorEmail: AUTHOR, status: 'rejected' }),
      makePost({ authorEmail: AUTHOR, status: 'pending' }),
    );
    signInAsMember();
    expect(await editPost(rejected!.id, { ...EDIT, tags: ['new'] })).toMatchObject({
      status: 'pending',
      resubmitted: true,
      editedAt: null,
      tags: ['new'],
    });
    expect(await editPost(pending!.id, EDIT)).toMatchObject({ status: 'pending', resubmitted: false, editedAt: null, previous: null });
  });

  it('only its author edits a post: another member and an admin are refused, a post they cannot see is not found', async () => {
    const [approved, hidden] = await storePosts(
      makePost({ authorEmail: AUTHOR, status: 'approved' }),
      makePost({ authorEmail: AUTHOR, status: 'pending' }),
    );
    signInAs('other@example.com', 'Other');
    await expect(editPost(approved!.id, EDIT)).rejects.toMatchObject({ code: 'not_your_post', message: ERRORS.not_your_post.message });
    await expect(editPost(hidden!.id, EDIT)).rejects.toMatchObject({ code: 'not_found' });
    await expect(editPost(42, EDIT)).rejects.toMatchObject({ code: 'not_found' });
    signInAsAdmin();
    await expect(editPost(hidden!.id, EDIT)).rejects.toMatchObject({ code: 'not_your_post' });
    expect((await row(approved!.id))!.title).toBe(approved!.title);
  });

  it('checks the New Post rules; an unknown category becomes the default, as in a new post', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR }));
    signInAsMember();
    await expect(editPost(post!.id, { ...EDIT, title: '   ' })).rejects.toMatchObject({ code: 'invalid', title: 'Missing Information' });
    await expect(editPost(post!.id, { ...EDIT, tags: [''] })).rejects.toMatchObject({ code: 'invalid' });
    expect((await editPost(post!.id, { ...EDIT, category: 'Astrology' })).category).toBe('Quantitative');
  });

  it('an edit clears the kept edit draft; the draft can be read and forgotten', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR }));
    signInAsMember();
    await db.meta.put({ key: editDraftMetaKey(AUTHOR, post!.id), value: { ...EDIT, tags: ['x'], savedAt: 1 } });
    expect(await loadEditDraft(AUTHOR, post!.id)).toEqual({ ...EDIT, tags: ['x'] });
    await clearEditDraft(AUTHOR, post!.id);
    expect(await loadEditDraft(AUTHOR, post!.id)).toBeNull();
    await db.meta.put({ key: editDraftMetaKey(AUTHOR, post!.id), value: { ...EDIT, savedAt: 1 } });
    await editPost(post!.id, EDIT);
    expect(await loadEditDraft(AUTHOR, post!.id)).toBeNull();
  });

  it('the mirror gets the new text and keeps exactly the post fields', async () => {
    const [post] = await storePosts(makePost({ authorEmail: AUTHOR }));
    signInAsMember();
    await editPost(post!.id, EDIT);
    await writeMirrorNow();
    const copy = mirrored().find((entry) => entry.id === post!.id)!;
    expect(copy.title).toBe('Sampling, revised');
    expect(Object.keys(copy)).toEqual([...POST_FIELDS]);
  });
});

/** An approved post by the member with two replies (one by someone else) and a view. */
async function postWithThread(): Promise<{ post: PostRow; replies: string[] }> {
  const [post] = await storePosts(makePost({ authorEmail: AUTHOR, status: 'approved', likes: 3 }));
  signInAs('other@example.com', 'Other');
  const first = await createReply(post!.id, 'First.');
  clock += 1_000;
  signInAsMember();
  const second = await createReply(post!.id, 'Second.');
  await recordView(post!.id);
  return { post: (await row(post!.id))!, replies: [first.id, second.id] };
}

describe('deleting a post', () => {
  it('removes the post, its replies and views at once (and from the mirror); Undo within the window puts back exactly that', async () => {
    const { post, replies } = await postWithThread();
    await writeMirrorNow();
    expect(mirrored().some((entry) => entry.id === post.id)).toBe(true);
    const repliesBefore = await db.replies.bulkGet(replies);
    const undo = await deletePost(post.id);
    expect(undo.until).toBe(clock + UNDO_WINDOW_MS);
    expect(await row(post.id)).toBeUndefined();
    expect(await db.replies.where('[postId+state]').between([post.id, 'a'], [post.id, 'z']).count()).toBe(0);
    expect(await db.viewed.count()).toBe(0);
    await writeMirrorNow();
    expect(mirrored().some((entry) => entry.id === post.id)).toBe(false);

    clock += UNDO_WINDOW_MS - 1;
    await undoDeletion(undo);
    const restored = (await row(post.id))!;
    expect({ ...restored, rev: 0 }).toEqual({ ...post, rev: 0 });
    // Put back as they were, with new change numbers (the search reads them again).
    expect(await db.replies.bulkGet(replies)).toEqual(repliesBefore.map((reply) => ({ ...reply, rev: expect.any(Number) })));
    expect((await listReplies(post.id, 0)).map((reply) => reply.content)).toEqual(['First.', 'Second.']);
    expect(restored.comments).toBe(2);
    expect(await db.viewed.get([AUTHOR, post.id])).toBeDefined();
    expect(await listUndoEntries()).toEqual([]);
    await writeMirrorNow();
    expect(mirrored().some((entry) => entry.id === post.id)).toBe(true);
    // A token is used once.
    await expect(undoDeletion(undo)).rejects.toMatchObject({ code: 'too_late_to_undo' });
  });

  it('Undo after the window (and its grace) is too late; the entry is purged by the next deletion', async () => {
    const { post } = await postWithThread();
    const [other] = await storePosts(makePost({ authorEmail: AUTHOR }));
    const undo = await deletePost(post.id);
    clock += UNDO_WINDOW_MS + UNDO_GRACE_MS;
    await expect(undoDeletion(undo)).rejects.toMatchObject({ code: 'too_late_to_undo', message: ERRORS.too_late_to_undo.message });
    expect(await row(post.id)).toBeUndefined();
    await deletePost(other!.id);
    expect((await listUndoEntries()).map((entry) => entry.post?.id)).toEqual([other!.id]);
  });

  it('its author or an admin deletes a post; another member is refused', async () => {
    const [mine, theirs] = await storePosts(makePost({ authorEmail: AUTHOR }), makePost({ authorEmail: 'other@example.com' }));
    signInAsMember();
    await expect(deletePost(theirs!.id)).rejects.toMatchObject({ code: 'not_your_post' });
    await expect(deletePost(999)).rejects.toMatchObject({ code: 'not_found' });
    await deletePost(mine!.id);
    signInAsAdmin();
    await deletePost(theirs!.id);
    expect(await db.posts.count()).toBe(0);
  });

  it('Undo works from any tab: the token names what the database kept, not what a page remembers', async () => {
    const { post } = await postWithThread();
    const { token, until } = await deletePost(post.id);
    // Another tab (the same database) gets the same token through the UI's toast.
    await undoDeletion({ token, until });
    expect(await row(post.id)).toBeDefined();
  });

  it('an older tab’s stale `posts` copy, or one left by a page closed too soon, never brings it back', async () => {
    const { post } = await postWithThread();
    await writeMirrorNow();
    const stale = localStorage.getItem('posts')!;
    await deletePost(post.id);
    await writeMirrorNow();
    const current = localStorage.getItem('posts');
    // An older build writes its copy (read before the deletion) with a like added to the post.
    const older = JSON.stringify((JSON.parse(stale) as Post[]).map((entry) => (entry.id === post.id ? { ...entry, likes: 9 } : entry)));
    localStorage.setItem('posts', older);
    await applyExternalPostsChange(current, older);
    expect(await row(post.id)).toBeUndefined();
    // The next start finds a copy older than the deletion.
    await importLegacyPosts();
    expect(await row(post.id)).toBeUndefined();
  });

  it('the search index drops a deleted post, takes it back on Undo, and follows an edit’s new text', async () => {
    const { post } = await postWithThread();
    const engine = new SearchEngine(idbPostSource());
    expect(await engine.search(post.title, 'All')).toEqual([post.id]);
    const undo = await deletePost(post.id);
    await engine.refresh();
    expect(await engine.search(post.title, 'All')).toEqual([]);
    await undoDeletion(undo);
    await engine.refresh();
    expect(await engine.search(post.title, 'All')).toEqual([post.id]);
    await editPost(post.id, { ...EDIT, title: 'Quota sampling' });
    await engine.refresh();
    expect(await engine.search('quota sampling', 'All')).toEqual([post.id]);
    expect(await engine.search(post.title, 'All')).toEqual([]);
    engine.stop();
  });
});

describe('deleting a reply', () => {
  it('an admin deletes any reply, another member none; Undo puts it back and recounts the post', async () => {
    const { post, replies } = await postWithThread();
    signInAs('third@example.com', 'Third');
    await expect(deleteReply(replies[0]!)).rejects.toMatchObject({ code: 'not_your_reply' });
    signInAsAdmin();
    const before = await db.replies.get(replies[0]!);
    const undo = await deleteReply(replies[0]!);
    expect((await row(post.id))!.comments).toBe(1);
    expect(await db.replies.get(replies[0]!)).toMatchObject({ state: 'deleted', content: '', listed: 0 });
    await undoDeletion(undo);
    // Put back as it was, with a new change number (the search reads it again).
    expect(await db.replies.get(replies[0]!)).toEqual({ ...before, rev: expect.any(Number) });
    expect((await row(post.id))!.comments).toBe(2);
  });

  it('Undo of a reply’s deletion after the window is too late', async () => {
    const { replies } = await postWithThread();
    const undo = await deleteReply(replies[1]!);
    clock += UNDO_WINDOW_MS + UNDO_GRACE_MS;
    await expect(undoDeletion(undo)).rejects.toMatchObject({ code: 'too_late_to_undo' });
  });
});
