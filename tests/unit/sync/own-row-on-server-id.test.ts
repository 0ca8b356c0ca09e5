// A row of this device's own (a post from before it met a server, an older build's `posts` copy
// imported) standing on the id of a server post that arrives outside a pull: the window's first page
// or a server search's posts. The row moves to a fresh id with the member's level and read position on
// it (rekeyPost), in the store's transaction: found by a new user whose device held an older copy,
// where the move reached the levels outside the transaction and every sync failed from then on.
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/db/storage/schema';
import { markConnected } from '../../../src/db/ops/sync-meta';
import { storeForumPage } from '../../../src/db/sync/window-store';
import { storeSearchedPosts } from '../../../src/db/sync/apply-pull';
import { createPost } from '../../../src/db/posts/posts';
import { makePost, signInAs } from '../factories';
import { wirePost } from './fixtures';

const OWNER = 'nora@example.com';
const ID = 7;

beforeEach(async () => {
  await markConnected();
  signInAs(OWNER, 'Nora');
  // This device's own post on id 7 (no `sync`: the server never had it), which the member watches and has read.
  await db.posts.add({ ...makePost({ id: ID, title: 'Written on this device', authorEmail: OWNER }), rev: 1 });
  await db.follows.put({ email: OWNER, kind: 'post', target: String(ID), level: 'watching', at: 1 });
  await db.reads.put({ email: OWNER, postId: ID, readTo: 1, unread: 0 });
});

const theServers = () => wirePost(makePost({ id: ID, title: 'The server’s post 7', authorEmail: '' }));

async function expectMoved() {
  expect((await db.posts.get(ID))?.title).toBe('The server’s post 7');
  const own = (await db.posts.toArray()).find((post) => post.title === 'Written on this device');
  expect(own && own.id).not.toBe(ID);
  expect(await db.follows.toArray()).toEqual([expect.objectContaining({ target: String(own!.id), level: 'watching' })]);
  expect((await db.reads.toArray()).map((read) => read.postId)).toEqual([own!.id]);
}

describe('a server post arriving on the id of a row of this device', () => {
  it('the window’s first page moves the row, its level and read position to a fresh id', async () => {
    expect(await storeForumPage({ posts: [theServers()], replies: [], cursor: 1, more: false }, OWNER)).toBeGreaterThan(0);
    await expectMoved();
  });

  it('a row that is the server post itself (a connected device’s `posts` copy imported into an emptied database) becomes the server’s row', async () => {
    const own = (await db.posts.get(ID))!;
    const same = wirePost(own);
    expect(await storeForumPage({ posts: [same], replies: [], cursor: 1, more: false }, OWNER)).toBe(1);
    const rows = await db.posts.toArray();
    expect(rows.map((post) => [post.id, post.title, post.sync !== undefined])).toEqual([[ID, 'Written on this device', true]]);
    // Nothing to offer for upload: no row of this device's own is left.
    expect(rows.filter((post) => !post.sync)).toEqual([]);
    expect((await db.follows.toArray()).map((row) => row.target)).toEqual([String(ID)]);
  });

  it('a row whose create is still queued is the member’s own post, even word for word the server’s: it moves aside, its create with it', async () => {
    const queued = await createPost({
      title: 'Written on this device',
      content: 'Some thoughts on sampling.',
      category: 'Quantitative',
      tags: [],
    });
    const server = wirePost({ ...(await db.posts.get(queued.id))!, status: 'approved' });
    expect(await storeForumPage({ posts: [server], replies: [], cursor: 1, more: false }, OWNER)).toBe(1);
    expect((await db.posts.get(queued.id))?.sync).toBeDefined();
    const moved = (await db.posts.toArray()).filter((post) => !post.sync && post.id !== ID);
    expect(moved).toHaveLength(1);
    expect((await db.outbox.toArray()).map((row) => row.postId)).toEqual([moved[0]!.id]);
  });

  it('a server search’s posts do the same', async () => {
    expect(await storeSearchedPosts([theServers()])).toBeGreaterThan(0);
    await expectMoved();
  });
});
