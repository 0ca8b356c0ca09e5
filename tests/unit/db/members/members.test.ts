// Member pages from the device: found by memberId of the authors' emails, only what every
// member may see (approved posts, visible replies, likes on approved posts), joinedAt from a local
// account; the server's page through GET /api/members/:id, and its search, through the API client.
import { describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { memberPostsOnDevice, memberProfileOnDevice } from '../../../../src/db/members/members';
import { fetchMemberProfile, searchServer } from '../../../../src/sync/server-reads';
import { readCursor, markConnected } from '../../../../src/db/ops/sync-meta';
import { memberId } from '../../../../src/shared/members';
import { DataError } from '../../../../src/db/storage/errors';
import type { SyncApi } from '../../../../src/sync/api';
import type { ReplyRow } from '../../../../src/db/storage/schema';
import { makePost, storePosts } from '../../factories';
import { wirePost } from '../../sync/fixtures';

const ANA = 'ana@example.com';
const replyRow = (id: string, postId: number, authorEmail: string, state: ReplyRow['state'] = 'visible'): ReplyRow => ({
  id,
  postId,
  author: 'Ana Lima',
  authorEmail,
  authorRole: 'user',
  content: state === 'visible' ? 'Hi' : '',
  quoteId: null,
  createdAt: 1,
  editedAt: null,
  state,
  listed: state === 'deleted' ? 0 : 1,
});

describe('member pages from the device', () => {
  it('counts approved posts, visible replies and likes received; never what is pending; newest posts first', async () => {
    await storePosts(
      makePost({ id: 1, authorEmail: ANA, author: 'Ana Lima', likes: 3 }),
      makePost({ id: 2, authorEmail: ANA, author: 'Ana Lima', likes: 4 }),
      makePost({ id: 3, authorEmail: ANA, author: 'Ana Lima', likes: 50, status: 'pending' }),
      makePost({ id: 4, authorEmail: 'ben@example.com', author: 'Ben', likes: 9 }),
    );
    await db.replies.bulkAdd([
      replyRow('r1', 4, ANA),
      replyRow('r2', 4, ANA, 'deleted'),
      replyRow('r3', 4, ANA, 'hidden'),
      replyRow('r4', 1, 'ben@example.com'),
    ]);
    const id = memberId(ANA);
    expect(await memberProfileOnDevice(id)).toEqual({
      id,
      name: 'Ana Lima',
      role: 'user',
      joinedAt: null,
      approvedPosts: 2,
      replyCount: 1,
      likesReceived: 7,
    });
    expect((await memberPostsOnDevice(id, 10)).map((post) => post.id)).toEqual([2, 1]);
    expect((await memberPostsOnDevice(id, 1)).map((post) => post.id)).toEqual([2]);
    // joinedAt from a local account.
    await db.accounts.put({ email: ANA, name: 'Ana Lima', createdAt: 1_700_000_000_000 });
    expect((await memberProfileOnDevice(id))!.joinedAt).toBe(1_700_000_000_000);
  });

  it('on a connected device: no join date from the sign-in record, the name its newest row carries, replies to approved posts only', async () => {
    await markConnected();
    await storePosts(
      makePost({ id: 1, authorEmail: ANA, author: 'Ana Renamed', date: '2026-11-20T10:00:00.000Z' }),
      makePost({ id: 2, authorEmail: 'ben@example.com', author: 'Ben', status: 'pending' }),
      makePost({ id: 3, authorEmail: 'ben@example.com', author: 'Ben' }),
    );
    await db.replies.bulkAdd([replyRow('p1', 2, ANA), replyRow('p2', 3, ANA)]);
    // The offline sign-in record of a member who renamed on another device since.
    await db.accounts.put({ email: ANA, name: 'Ana Lima', createdAt: Date.now() });
    expect(await memberProfileOnDevice(memberId(ANA))).toMatchObject({ name: 'Ana Renamed', joinedAt: null, replyCount: 1 });
  });

  it('is null for a member with nothing on the device, an unknown id, or a malformed one', async () => {
    await storePosts(makePost({ id: 3, authorEmail: 'pending@example.com', status: 'pending' }));
    expect(await memberProfileOnDevice(memberId('nobody@example.com'))).toBeNull();
    expect(await memberProfileOnDevice(memberId('pending@example.com'))).toBeNull();
    expect(await memberProfileOnDevice('not-an-id')).toBeNull();
    expect(await memberPostsOnDevice('not-an-id', 5)).toEqual([]);
  });
});

describe('the server’s search and member pages', () => {
  const api = (overrides: Partial<SyncApi>): SyncApi => ({
    health: async () => true,
    signIn: async () => Promise.reject(new Error('not used')),
    currentUser: async () => null,
    signOut: async () => undefined,
    push: async () => Promise.reject(new Error('not used')),
    pull: async () => Promise.reject(new Error('not used')),
    ...overrides,
  });

  it('searchServer stores the found posts like pulled ones (not new, the cursor stays) and returns their ids, best first', async () => {
    await markConnected();
    const asked: unknown[] = [];
    const found = [
      wirePost(makePost({ id: 30, title: 'Best' }), { seq: 90 }),
      wirePost(makePost({ id: 12, title: 'Second' }), { seq: 40 }),
    ];
    const result = await searchServer(
      'author:ana "mobile diary"',
      'Trends',
      api({
        search: async (...args) => {
          asked.push(args);
          return { posts: found, total: 100, more: true, matches: [{ postId: 12, replyId: 'r-12' }] };
        },
      }),
    );
    expect(asked).toEqual([['author:ana "mobile diary"', 'Trends', 100, 0]]);
    expect(result).toEqual({ ids: [30, 12], total: 100, more: true, replies: { 12: 'r-12' } });
    expect(await db.posts.get(30)).toMatchObject({ title: 'Best', arrivedAt: 0, sync: { seq: 90 } });
    expect(await readCursor()).toBe(0);
  });

  it('searchServer and fetchMemberProfile throw the app’s usual errors', async () => {
    const offline = new DataError('offline');
    await expect(searchServer('x', 'All', api({ search: async () => Promise.reject(offline) }))).rejects.toBe(offline);
    const missing = new DataError('member_not_found', { status: 404 });
    await expect(fetchMemberProfile('0123456789abcdef', api({ member: async () => Promise.reject(missing) }))).rejects.toMatchObject({
      code: 'member_not_found',
      message: 'There is no member at this address.',
    });
    const profile = {
      id: '0123456789abcdef',
      name: 'Ana',
      role: 'user' as const,
      joinedAt: 5,
      approvedPosts: 1,
      replyCount: 2,
      likesReceived: 3,
    };
    expect(await fetchMemberProfile('0123456789abcdef', api({ member: async () => profile }))).toEqual(profile);
  });
});

describe('the API client’s search and member page requests', () => {
  it('asks GET /api/search with the query, category and limit, and GET /api/members/:id; answers are checked', async () => {
    const { createApi } = await import('../../../../src/sync/api');
    const urls: string[] = [];
    const reply = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    const client = createApi(async (input) => {
      urls.push(input);
      if (input.startsWith('/api/search')) return reply({ posts: [], total: 0 });
      if (input.endsWith('/bad')) return reply({ name: 'no id' });
      return reply({ id: '0123456789abcdef', name: 'Ana', joinedAt: null, approvedPosts: 0, replyCount: 0, likesReceived: 0 });
    });
    expect(await client.search!('tag:nps "a b"', 'All', 100)).toEqual({ posts: [], total: 0, more: false, matches: [] }); // an older server's answer, read with the defaults
    expect((await client.member!('0123456789abcdef')).name).toBe('Ana');
    await expect(client.member!('bad')).rejects.toMatchObject({ code: 'bad_answer' });
    expect(urls[0]).toBe('/api/search?q=tag%3Anps+%22a+b%22&category=All&limit=100');
    expect(urls[1]).toBe('/api/members/0123456789abcdef');
  });
});
