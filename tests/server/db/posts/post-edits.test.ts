// Writing on both engines (protocol version 3): an author edits their post in every status under
// the one rule (editedPost), a review that came in between refuses the edit, the replaced text goes
// to admins only; a post is deleted by its author or an admin, its row moves to deleted_posts, a
// version-3 pull carries its id (never its content) and older versions simply lose it; nothing can
// be done to a deleted post any more; an admin deletes any reply; a review ends "Resubmitted".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeHead } from '../../../../server/db/sync/changes';
import { ERRORS } from '../../../../src/shared/errors';
import type { PostStatus } from '../../../../src/shared/post-rules';
import type { WirePost } from '../../../../src/shared/protocol';
import { validateNewPost } from '../../../../src/shared/validation';
import {
  type Client,
  deletePostOp,
  deleteReplyOp,
  editPostOp,
  editReplyOp,
  likeOp,
  replyOp,
  reviewOp,
  signedIn,
  viewOp,
  type Answer,
} from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';
import { allPages, type Page } from '../../support/pages';

const resultOf = (answer: Answer) => answer.body.results[0];

describe.each(BACKENDS)('editing and deleting posts on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let author: Client;
  let other: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    author = await signedIn(server.app, 'author@example.com');
    other = await signedIn(server.app, 'other@example.com');
  });
  afterAll(() => server.close());

  /** A post of the author's in `status` (reviewed by the admin when not pending). */
  async function postIn(status: PostStatus, title = `A ${status} post`): Promise<number> {
    const postId = await author.createPost(title);
    if (status !== 'pending') await admin.push(reviewOp(postId, status === 'approved' ? 'approve' : 'reject'));
    return postId;
  }

  async function pulled(client: Client, postId: number, protocol?: number): Promise<WirePost | undefined> {
    const answer = await client.pull(0, 1000, protocol);
    return (answer.body as Page).posts.find((post) => post.id === postId);
  }

  async function serverRow(postId: number) {
    const [row] = await server.db.query('SELECT * FROM posts WHERE id = $1', [postId]);
    return row;
  }

  it('a pending post edited by its author stays pending, takes the new text (trimmed) and a new change number; tags stay unless given', async () => {
    const postId = await author.createPost('First words');
    await author.push(editPostOp(postId, 'pending', { title: 'Untagged', tags: ['one', 'two'] }));
    const before = await pulled(author, postId);
    const answer = await author.push(
      editPostOp(postId, 'pending', { title: '  Better words  ', content: '  New body.  ', category: 'Trends' }),
    );
    const result = resultOf(answer);
    expect(result).toMatchObject({
      status: 'applied',
      postId,
      post: {
        id: postId,
        title: 'Better words',
        content: 'New body.',
        category: 'Trends',
        tags: ['one', 'two'],
        status: 'pending',
        editedAt: null,
        resubmitted: false,
        previous: null,
      },
    });
    expect(result.post.seq).toBeGreaterThan(before!.seq);
    expect(answer.body.cursor).toBeGreaterThanOrEqual(result.post.seq);
    expect(await pulled(author, postId)).toEqual(result.post);
  });

  it('a rejected post edited by its author is pending again and resubmitted, until its next review', async () => {
    for (const review of ['approve', 'reject'] as const) {
      const postId = await postIn('rejected');
      const edited = resultOf(await author.push(editPostOp(postId, 'rejected', { title: 'Fixed as asked' })));
      expect(edited).toMatchObject({
        status: 'applied',
        post: { status: 'pending', resubmitted: true, editedAt: null, title: 'Fixed as asked' },
      });
      expect(await pulled(admin, postId)).toMatchObject({ status: 'pending', resubmitted: true });
      // Editing it again while it waits keeps the mark.
      const again = resultOf(await author.push(editPostOp(postId, 'pending', { title: 'Fixed twice' })));
      expect(again.post).toMatchObject({ status: 'pending', resubmitted: true });
      const reviewed = resultOf(await admin.push(reviewOp(postId, review)));
      expect(reviewed.post).toMatchObject({ status: review === 'approve' ? 'approved' : 'rejected', resubmitted: false });
      expect((await serverRow(postId))!.resubmitted).toBe(false);
    }
  });

  it('an approved post edited by its author stays approved, is marked edited and keeps the replaced version for admins only', async () => {
    const postId = await postIn('approved', 'The original title');
    const original = (await pulled(admin, postId))!;
    const before = Date.now();
    const first = resultOf(await author.push(editPostOp(postId, 'approved', { title: 'The first edit', tags: ['edited'] })));
    const after = Date.now();
    expect(first).toMatchObject({
      status: 'applied',
      post: { status: 'approved', title: 'The first edit', tags: ['edited'], resubmitted: false },
    });
    expect(first.post.editedAt).toBeGreaterThanOrEqual(before);
    expect(first.post.editedAt).toBeLessThanOrEqual(after);
    // The author is a member: the push result carries no previous version.
    expect(first.post.previous).toBeNull();
    const expectedPrevious = {
      title: original.title,
      content: original.content,
      category: original.category,
      tags: original.tags,
      editedAt: null,
    };
    expect((await pulled(admin, postId))!.previous).toEqual(expectedPrevious);
    for (const member of [author, other]) {
      const seen = (await pulled(member, postId))!;
      expect(seen).toMatchObject({ title: 'The first edit', editedAt: first.post.editedAt, previous: null });
    }
    // The text a member never receives stays in the database (admins read it there). The author's
    // notification of the approval names the post as it was then: that is not the replaced version.
    expect(JSON.stringify({ ...(await author.pull()).body, notifications: [] })).not.toContain(original.title);
    expect(JSON.stringify((await other.pull()).body)).not.toContain(original.title);
    // A second edit replaces the first: previous is the first edit, with its own time.
    const second = resultOf(await author.push(editPostOp(postId, 'approved', { title: 'The second edit' })));
    expect(second.post.editedAt).toBeGreaterThanOrEqual(first.post.editedAt);
    expect((await pulled(admin, postId))!.previous).toEqual({
      title: 'The first edit',
      content: 'Edited content.',
      category: 'Trends',
      tags: ['edited'],
      editedAt: first.post.editedAt,
    });
  });

  it('an admin’s own edit carries the previous version in its push result and its duplicate; a member’s duplicate does not', async () => {
    const postId = await admin.createPost('The admin’s words');
    await admin.push(reviewOp(postId));
    const op = editPostOp(postId, 'approved', { title: 'The admin’s new words' });
    const first = resultOf(await admin.push(op));
    expect(first.post).toMatchObject({ title: 'The admin’s new words', previous: { title: 'The admin’s words', editedAt: null } });
    const again = resultOf(await admin.push(op));
    expect(again).toMatchObject({ status: 'duplicate', postId, post: first.post });

    const memberPost = await postIn('approved', 'A member’s words');
    const memberOp = editPostOp(memberPost, 'approved');
    const applied = resultOf(await author.push(memberOp));
    const duplicate = resultOf(await author.push(memberOp));
    expect(duplicate).toMatchObject({ status: 'duplicate', postId: memberPost, post: { title: 'An edited title', previous: null } });
    expect(duplicate.post.seq).toBe(applied.post.seq);
    expect((await pulled(admin, memberPost))!.previous).toMatchObject({ title: 'A member’s words' });
  });

  it('only the author edits: another member and an admin are refused not_your_post, and an unseen or unknown post is not_found', async () => {
    const approved = await postIn('approved');
    const pending = await postIn('pending');
    const unchanged = await serverRow(approved);
    expect(resultOf(await other.push(editPostOp(approved, 'approved')))).toMatchObject({
      status: 'refused',
      code: 'not_your_post',
      reason: ERRORS.not_your_post.message,
    });
    expect(resultOf(await admin.push(editPostOp(approved, 'approved')))).toMatchObject({ status: 'refused', code: 'not_your_post' });
    expect(resultOf(await admin.push(editPostOp(pending, 'pending')))).toMatchObject({ status: 'refused', code: 'not_your_post' });
    expect(resultOf(await other.push(editPostOp(pending, 'pending')))).toMatchObject({ status: 'refused', code: 'not_found' });
    expect(resultOf(await author.push(editPostOp(123, 'pending')))).toMatchObject({ status: 'refused', code: 'not_found' });
    expect(await serverRow(approved)).toEqual(unchanged);
  });

  it('an edit from a status the post has left (a review came in between) is refused edit_conflict and changes nothing', async () => {
    const postId = await postIn('pending');
    const head = await changeHead(server.db);
    // The author edited the pending post offline; meanwhile the admin approved it.
    await admin.push(reviewOp(postId));
    const unchanged = await serverRow(postId);
    const answer = await author.push(editPostOp(postId, 'pending', { title: 'Written while it was pending' }));
    expect(resultOf(answer)).toMatchObject({ status: 'refused', code: 'edit_conflict', reason: ERRORS.edit_conflict.message });
    expect(await serverRow(postId)).toEqual(unchanged);
    // The refusal took no change number: only the review did.
    expect(await changeHead(server.db)).toBe(head + 1);
    for (const base of ['rejected', 'pending'] as const) {
      expect(resultOf(await author.push(editPostOp(postId, base)))).toMatchObject({ code: 'edit_conflict' });
    }
  });

  it('an edit that breaks the new post rules is refused invalid with the rule’s sentence, before anything is looked up', async () => {
    const postId = await postIn('pending');
    const unchanged = await serverRow(postId);
    const answer = await author.push(editPostOp(postId, 'pending', { title: '   ' }));
    expect(resultOf(answer)).toMatchObject({
      status: 'refused',
      code: 'invalid',
      reason: validateNewPost('   ', 'Edited content.')!.message,
    });
    expect(resultOf(await author.push(editPostOp(postId, 'pending', { category: 'Gossip' })))).toMatchObject({ code: 'invalid' });
    expect(await serverRow(postId)).toEqual(unchanged);
    // Even on a post this member cannot see: the text is checked first.
    expect(resultOf(await other.push(editPostOp(postId, 'pending', { title: '' })))).toMatchObject({ code: 'invalid' });
  });

  it('its author deletes a post: the row moves to deleted_posts, a version-3 pull carries its id to every member, no pull its content', async () => {
    const title = 'Words to be deleted 7f3a';
    const postId = await postIn('approved', title);
    const reply = await other.reply(postId, 'A reply to the deleted post 7f3a.');
    const cursors = await Promise.all([author, other, admin].map(async (client) => (await client.pull()).body.cursor as number));
    const before = Date.now();
    const op = deletePostOp(postId);
    const answer = await author.push(op);
    const after = Date.now();
    expect(resultOf(answer)).toEqual({ id: op.id, status: 'applied', seq: expect.any(Number), postId });
    const head = await changeHead(server.db);
    expect(answer.body.cursor).toBe(head);

    expect(await serverRow(postId)).toBeUndefined();
    const [kept] = await server.db.query('SELECT * FROM deleted_posts WHERE id = $1', [postId]);
    expect(kept).toMatchObject({ title, status: 'approved', author_email: 'author@example.com' });
    expect(Number(kept!.seq)).toBe(head);
    expect(Number(kept!.deleted_at)).toBeGreaterThanOrEqual(before);
    expect(Number(kept!.deleted_at)).toBeLessThanOrEqual(after);
    const [authorRow] = await server.db.query('SELECT id FROM users WHERE email = $1', ['author@example.com']);
    expect(Number(kept!.deleted_by)).toBe(Number(authorRow!.id));
    // Its replies stay in their table (for admins and backups), out of every pull.
    expect(await server.db.query('SELECT id FROM replies WHERE post_id = $1', [postId])).toHaveLength(1);

    for (const [index, client] of [author, other, admin].entries()) {
      const page = (await client.pull(cursors[index])).body as Page;
      expect(page.removed).toEqual([{ id: postId, seq: head }]);
      for (const protocol of [1, 2, 3]) {
        const whole = (await client.pull(0, 1000, protocol)).body as Page;
        expect(whole.posts.some((post) => post.id === postId)).toBe(false);
        expect((whole.replies ?? []).some((row) => row.id === reply.id || row.postId === postId)).toBe(false);
        const text = JSON.stringify(whole);
        expect(text).not.toContain('7f3a');
        expect('removed' in whole).toBe(protocol === 3);
      }
    }
  });

  it('a deleted pending post’s tombstone goes only to its author and the admins, who could see it', async () => {
    const postId = await postIn('pending', 'A pending post deleted 9c1e');
    const cursors = await Promise.all([author, other, admin].map(async (client) => (await client.pull()).body.cursor as number));
    await author.push(deletePostOp(postId));
    const removed = await Promise.all(
      [author, other, admin].map(async (client, index) =>
        (((await client.pull(cursors[index])).body as Page).removed ?? []).map((row) => row.id),
      ),
    );
    expect(removed).toEqual([[postId], [], [postId]]);
  });

  it('a version-2 pull has no removed key and simply lacks the deleted post', async () => {
    const postId = await postIn('approved');
    const start = await changeHead(server.db);
    await author.push(deletePostOp(postId));
    for (const protocol of [2, 1]) {
      const page = (await other.pull(start, 1000, protocol)).body as Page;
      expect(Object.keys(page).sort()).toEqual(protocol === 2 ? ['cursor', 'more', 'posts', 'replies'] : ['cursor', 'more', 'posts']);
      expect(page).toMatchObject({ posts: [], cursor: await changeHead(server.db), more: false });
    }
  });

  it('an admin deletes anyone’s post; another member is refused not_your_post, or not_found for a post they cannot see', async () => {
    const approved = await postIn('approved');
    const pending = await postIn('pending');
    const rejected = await postIn('rejected');
    expect(resultOf(await other.push(deletePostOp(approved)))).toMatchObject({
      status: 'refused',
      code: 'not_your_post',
      reason: ERRORS.not_your_post.message,
    });
    expect(resultOf(await other.push(deletePostOp(pending)))).toMatchObject({ status: 'refused', code: 'not_found' });
    expect(await serverRow(approved)).toBeDefined();
    for (const postId of [approved, pending, rejected]) {
      expect(resultOf(await admin.push(deletePostOp(postId)))).toMatchObject({ status: 'applied', postId });
      const [kept] = await server.db.query('SELECT deleted_by FROM deleted_posts WHERE id = $1', [postId]);
      const [adminRow] = await server.db.query('SELECT id FROM users WHERE email = $1', [ADMIN_EMAIL]);
      expect(Number(kept!.deleted_by)).toBe(Number(adminRow!.id));
    }
    expect(resultOf(await author.push(deletePostOp(12345)))).toMatchObject({ status: 'refused', code: 'not_found' });
  });

  it('a retried delete answers duplicate with the post id and no post; another delete of it, or an edit, is not_found', async () => {
    const postId = await postIn('pending');
    const op = deletePostOp(postId);
    const first = await author.push(op);
    const head = await changeHead(server.db);
    const again = await author.push(op);
    expect(resultOf(again)).toEqual({ id: op.id, status: 'duplicate', seq: expect.any(Number), postId });
    expect(await changeHead(server.db)).toBe(head);
    expect(again.body.cursor).toBe(first.body.cursor);
    expect(resultOf(await author.push(deletePostOp(postId)))).toMatchObject({ status: 'refused', code: 'not_found' });
    expect(resultOf(await admin.push(deletePostOp(postId)))).toMatchObject({ status: 'refused', code: 'not_found' });
    expect(resultOf(await author.push(editPostOp(postId, 'pending')))).toMatchObject({ status: 'refused', code: 'not_found' });
    // A retried edit of a post deleted since then answers duplicate without the post.
    const edited = await postIn('pending');
    const edit = editPostOp(edited, 'pending');
    await author.push(edit);
    await author.push(deletePostOp(edited));
    expect(resultOf(await author.push(edit))).toEqual({ id: edit.id, status: 'duplicate', seq: expect.any(Number), postId: edited });
    expect(await server.db.query('SELECT 1 FROM deleted_posts WHERE id IN ($1, $2)', [postId, edited])).toHaveLength(2);
  });

  it('a like, a reply, a view, a review or a reply’s edit on a deleted post are refused; the post and its replies never come back', async () => {
    const postId = await postIn('approved');
    const reply = await other.reply(postId, 'Still here?');
    const pendingId = await postIn('pending');
    await admin.push(deletePostOp(postId));
    await author.push(deletePostOp(pendingId));
    const head = await changeHead(server.db);
    for (const client of [author, other, admin]) {
      expect(resultOf(await client.push(likeOp(postId)))).toMatchObject({ status: 'refused', code: 'not_found' });
      expect(resultOf(await client.push(replyOp(postId)))).toMatchObject({ status: 'refused', code: 'not_found' });
      expect(resultOf(await client.push(viewOp(postId)))).toMatchObject({ status: 'refused', code: 'not_found' });
    }
    expect(resultOf(await other.push(editReplyOp(reply.id)))).toMatchObject({ status: 'refused', code: 'reply_not_found' });
    expect(resultOf(await other.push(deleteReplyOp(reply.id)))).toMatchObject({ status: 'refused', code: 'reply_not_found' });
    expect(resultOf(await admin.push(reviewOp(pendingId)))).toMatchObject({ status: 'refused', code: 'not_found' });
    expect(await changeHead(server.db)).toBe(head);
    const [kept] = await server.db.query('SELECT likes, views, comments FROM deleted_posts WHERE id = $1', [postId]);
    expect(kept).toMatchObject({ comments: 1, views: 0 });
    expect(Number(kept!.likes)).toBe(0);
  });

  it('an admin deletes another member’s reply; a member still deletes only their own', async () => {
    const postId = await postIn('approved');
    const reply = await other.reply(postId, 'An unkind reply.');
    expect(resultOf(await author.push(deleteReplyOp(reply.id)))).toMatchObject({ status: 'refused', code: 'not_your_reply' });
    const answer = await admin.push(deleteReplyOp(reply.id));
    expect(resultOf(answer)).toMatchObject({
      status: 'applied',
      postId,
      post: { comments: 0 },
      reply: { id: reply.id, state: 'deleted', content: '', authorEmail: 'other@example.com' },
    });
    const [row] = await server.db.query('SELECT content, state FROM replies WHERE id = $1', [reply.id]);
    expect(row).toEqual({ content: '', state: 'deleted' });
  });
});

describe.each(BACKENDS)('pages with removed posts on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let author: Client;
  let reader: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    author = await signedIn(server.app, 'writer@example.com');
    reader = await signedIn(server.app, 'reader@example.com');
  });
  afterAll(() => server.close());

  async function approvedPosts(count: number): Promise<number[]> {
    const posts: number[] = [];
    for (let index = 0; index < count; index += 1) posts.push(await author.createPost(`Paged ${index}`));
    await admin.push(...posts.map((postId) => reviewOp(postId)));
    return posts;
  }

  const ids = (rows: { id: number | string }[]) => rows.map((row) => String(row.id)).sort();

  it('removed posts page with posts and replies by change number; every page size gives the same rows as one pull', async () => {
    const start = await changeHead(server.db);
    const posts = await approvedPosts(6);
    await reader.reply(posts[0]!, 'On the first.');
    // Neighbouring tombstones: two deletions in a row, then a change to another post.
    await author.push(deletePostOp(posts[1]!), deletePostOp(posts[2]!));
    await reader.push(likeOp(posts[3]!));
    // A tombstone sharing its change number with posts (as one operation deleting several would):
    // the group of likes on posts 4 and 5 and the deletion of post 0 under one number.
    await author.push(deletePostOp(posts[0]!));
    const [group] = await server.db.query<{ seq: unknown }>('SELECT seq FROM deleted_posts WHERE id = $1', [posts[0]]);
    await server.db.query('UPDATE posts SET seq = $1 WHERE id IN ($2, $3)', [group!.seq, posts[4], posts[5]]);
    const whole = (await reader.pull(start, 1000)).body as Page;
    expect(whole.more).toBe(false);
    expect(ids(whole.removed!)).toEqual(ids([posts[0], posts[1], posts[2]].map((id) => ({ id: id! }))));
    expect(ids(whole.posts)).toEqual(ids([posts[3], posts[4], posts[5]].map((id) => ({ id: id! }))));
    // The reply of a deleted post is never pulled.
    expect(whole.replies).toEqual([]);
    for (const limit of [1, 2, 3, 4, 7]) {
      const pages = await allPages(reader, start, limit);
      expect(ids(pages.flatMap((page) => page.posts))).toEqual(ids(whole.posts));
      expect(ids(pages.flatMap((page) => page.removed!))).toEqual(ids(whole.removed!));
      expect(pages.flatMap((page) => page.replies!)).toEqual([]);
      expect(pages.at(-1)!.cursor).toBe(whole.cursor);
    }
    // With limit 1 the shared number comes whole: two posts and a tombstone on one page.
    const shared = (await allPages(reader, start, 1)).find((page) => page.removed!.some((gone) => gone.id === posts[0]));
    expect(shared).toMatchObject({
      posts: [{ seq: Number(group!.seq) }, { seq: Number(group!.seq) }],
      removed: [{ seq: Number(group!.seq) }],
    });
  });

  it('a page of only tombstones ends at the last one it holds, and the next page starts above it', async () => {
    const posts = await approvedPosts(3);
    const start = await changeHead(server.db);
    for (const postId of posts) await author.push(deletePostOp(postId));
    const first = (await reader.pull(start, 2)).body as Page;
    expect(first).toMatchObject({ posts: [], replies: [], more: true });
    expect(first.removed!.map((gone) => gone.id)).toEqual(posts.slice(0, 2));
    expect(first.cursor).toBe(first.removed![1]!.seq);
    const second = (await reader.pull(first.cursor, 2)).body as Page;
    expect(second).toMatchObject({ removed: [{ id: posts[2] }], more: false, cursor: await changeHead(server.db) });
  });

  it('a page of one change number past the limit says more when only a tombstone follows', async () => {
    const [liked, other, doomed] = await approvedPosts(3);
    const start = await changeHead(server.db);
    // Two posts share a change number (as an older build's group commit of likes left them); then a deletion.
    const [head] = await server.db.query<{ seq: unknown }>('UPDATE change_head SET seq = seq + 1 RETURNING seq');
    await server.db.query('UPDATE posts SET likes = likes + 1, seq = $1 WHERE id = ANY($2::bigint[])', [Number(head!.seq), [liked, other]]);
    await author.push(deletePostOp(doomed!));
    const first = (await reader.pull(start, 1)).body as Page;
    expect(first).toMatchObject({ removed: [], more: true });
    expect(ids(first.posts)).toEqual(ids([{ id: liked! }, { id: other! }]));
    const second = (await reader.pull(first.cursor, 1)).body as Page;
    expect(second).toMatchObject({ posts: [], removed: [{ id: doomed }], more: false });
  });
});
