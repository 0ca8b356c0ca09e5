// Following on the server (issue 62, protocol version 8), on PGlite and on PostgreSQL: the operations
// follow, readPost and setAutoWatch through POST /api/ops and the pull (who may send what, the limit
// of 500 categories and tags, hostile inputs, read positions that never go backwards, watching what
// one writes and its opt-out), a member's rows in their own pulls only (never an older protocol's),
// the live stream that wakes only them, and the forum's pages and search without what they muted.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLLOW_LIMITS } from '../../../../src/shared/follows';
import {
  PROTOCOL_VERSION,
  type Op,
  type WireFollow,
  type WirePost,
  type WirePreferences,
  type WireRead,
} from '../../../../src/shared/protocol';
import {
  Client,
  createOp,
  editPostOp,
  flagOp,
  followOp,
  hidePostOp,
  readPostOp,
  reviewOp,
  saveOp,
  setAutoWatchOp,
  signedIn,
  type Answer,
} from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { listen, testServer, type TestServer } from '../../support/app';
import { openEventStream } from '../../support/sse';
import { allPages, type Page } from '../../support/pages';

const resultOf = (answer: Answer) => answer.body.results[0];
const outcome = (answer: Answer) => {
  const result = resultOf(answer);
  return result.status === 'refused' ? result.code : result.status;
};

interface FollowingPage {
  posts: WirePost[];
  follows?: WireFollow[];
  reads?: WireRead[];
  preferences: WirePreferences | null;
  cursor: number;
}

describe.each(BACKENDS)('following on %s', (backend) => {
  let server: TestServer;
  let baseUrl: string;
  let admin: Client;
  let author: Client;
  let reader: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    baseUrl = await listen(server);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    author = await signedIn(server.app, 'follow-author@example.com');
    reader = await signedIn(server.app, 'follow-reader@example.com');
  });
  afterAll(() => server.close());

  const applied = async (client: Client, ...ops: Op[]) => {
    const answer = await client.push(...ops);
    for (const result of answer.body.results) expect(result.status, JSON.stringify(result)).toBe('applied');
    return answer;
  };
  async function approvedPost(client: Client, title: string, fields: Record<string, unknown> = {}): Promise<number> {
    const answer = await applied(client, createOp(title, fields));
    const postId = resultOf(answer).postId as number;
    await applied(admin, reviewOp(postId));
    return postId;
  }
  async function pulled(client: Client, after = 0, protocol = PROTOCOL_VERSION): Promise<FollowingPage> {
    const answer = await client.pull(after, 1000, protocol);
    expect(answer.status).toBe(200);
    return answer.body as FollowingPage;
  }
  /** The public id of the client's member (their session says it). */
  const idOf = async (client: Client): Promise<string> => (await client.request('GET', '/api/session')).body.user.id;
  const followsOf = async (client: Client, target: string) => (await pulled(client)).follows!.filter((row) => row.target === target);
  const readOf = async (client: Client, postId: number) => (await pulled(client)).reads!.filter((row) => row.postId === postId);
  /** A private category (seen by one new group's members: `members`) and an approved post in it. */
  async function privateRoom(members: Client[]): Promise<{ category: string; group: string; postId: number }> {
    const group = randomUUID();
    const category = randomUUID();
    await applied(admin, { id: randomUUID(), type: 'createGroup', groupId: group, name: `Group ${group.slice(0, 8)}` } as Op);
    for (const member of members)
      await applied(admin, { id: randomUUID(), type: 'addGroupMember', groupId: group, memberId: await idOf(member) } as Op);
    await applied(admin, {
      id: randomUUID(),
      type: 'createCategory',
      categoryId: category,
      name: `Room ${category.slice(0, 8)}`,
      position: 9,
      see: [group],
      post: null,
    } as Op);
    const postId = await approvedPost(admin, `In ${category}`, { category });
    return { category, group, postId };
  }

  describe('the operations', () => {
    it('follow: each kind, the member’s own devices pull it; setting the same level again takes no change number', async () => {
      const phone = await signedIn(server.app, 'follow-phone@example.com');
      const tablet = await signedIn(server.app, 'follow-phone@example.com');
      const postId = await approvedPost(author, 'Followed from the phone');
      const before = Date.now();
      const pushed = await applied(
        phone,
        followOp('post', String(postId)),
        followOp('category', 'Trends', 'muted'),
        followOp('tag', '  Solar ', 'watching'),
      );
      const page = await pulled(tablet);
      expect(page.follows!.map(({ kind, target, level }) => [kind, target, level])).toEqual([
        ['post', String(postId), 'watching'],
        ['category', 'Trends', 'muted'],
        ['tag', 'solar', 'watching'],
      ]);
      expect(page.follows![0]!.at).toBeGreaterThanOrEqual(before);
      expect(pushed.body.cursor).toBeGreaterThanOrEqual(Math.max(...page.follows!.map((row) => row.seq)));
      // Nobody else's pull carries them (the author watches the post they wrote: their own row, not the phone's).
      expect((await pulled(reader)).follows!.filter((row) => row.target === String(postId))).toEqual([]);
      expect(await followsOf(author, String(postId))).toMatchObject([{ level: 'watching', seq: expect.any(Number) }]);
      expect((await followsOf(author, String(postId)))[0]!.seq).toBeLessThan(page.follows![0]!.seq);
      expect((await pulled(admin)).follows!.filter((row) => row.target === 'solar')).toEqual([]);
      // The same level again: applied, but nothing changed, so no change number; another level is a new one.
      const again = await phone.push(followOp('category', 'Trends', 'muted'));
      expect(outcome(again)).toBe('applied');
      expect((await pulled(tablet, page.cursor)).follows).toEqual([]);
      await applied(phone, followOp('category', 'Trends', 'normal'));
      expect((await pulled(tablet, page.cursor)).follows!.map((row) => [row.target, row.level])).toEqual([['Trends', 'normal']]);
    });

    it('readPost: only forward; two devices, the latest position wins; a position ahead of the clock is cut', async () => {
      const phone = await signedIn(server.app, 'read-phone@example.com');
      const tablet = await signedIn(server.app, 'read-phone@example.com');
      const postId = await approvedPost(author, 'Read on two devices');
      await applied(phone, readPostOp(postId, 2_000));
      const [first] = await readOf(tablet, postId);
      expect(first).toMatchObject({ postId, readTo: 2_000 });
      // The tablet, behind, sends an older position: applied (its outbox empties), nothing moves, no change number.
      const behind = await tablet.push(readPostOp(postId, 1_000));
      expect(outcome(behind)).toBe('applied');
      expect(await readOf(phone, postId)).toEqual([first]);
      expect((await pulled(phone, first!.seq)).reads).toEqual([]);
      await applied(tablet, readPostOp(postId, 3_000));
      const [later] = await readOf(phone, postId);
      expect(later).toMatchObject({ readTo: 3_000 });
      expect(later!.seq).toBeGreaterThan(first!.seq);
      // Far in the future: cut to now + FOLLOW_LIMITS.readAhead.
      const sent = Date.now();
      await applied(phone, readPostOp(postId, Number.MAX_SAFE_INTEGER));
      const [cut] = await readOf(tablet, postId);
      expect(cut!.readTo).toBeGreaterThanOrEqual(sent + FOLLOW_LIMITS.readAhead);
      expect(cut!.readTo).toBeLessThanOrEqual(Date.now() + FOLLOW_LIMITS.readAhead);
      // Another member never gets it (the author has their own: the post they wrote, read to 0).
      expect(await readOf(reader, postId)).toEqual([]);
      expect(await readOf(author, postId)).toMatchObject([{ readTo: 0 }]);
    });

    it('setAutoWatch: a preferences change (autoWatch, default true) on the member’s devices only', async () => {
      const phone = await signedIn(server.app, 'auto-phone@example.com');
      const laptop = await signedIn(server.app, 'auto-phone@example.com');
      await applied(phone, setAutoWatchOp(false));
      const { preferences } = await pulled(laptop);
      expect(preferences).toMatchObject({ autoWatch: false });
      expect((await pulled(reader)).preferences?.autoWatch ?? true).toBe(true);
      await applied(phone, setAutoWatchOp(true));
      expect((await pulled(laptop, preferences!.seq)).preferences).toMatchObject({ autoWatch: true });
    });

    it('writing a post or replying watches it and reads to what one wrote, unless one set a level or turned it off', async () => {
      const writer = await signedIn(server.app, 'auto-writer@example.com');
      const postId = await approvedPost(writer, 'Written, so watched');
      expect(await followsOf(writer, String(postId))).toMatchObject([{ kind: 'post', level: 'watching' }]);
      expect(await readOf(writer, postId)).toMatchObject([{ readTo: 0 }]);
      const other = await approvedPost(author, 'Replied to, so watched');
      const reply = await writer.reply(other, 'My reply.');
      expect(await followsOf(writer, String(other))).toMatchObject([{ level: 'watching' }]);
      expect(await readOf(writer, other)).toMatchObject([{ readTo: reply.createdAt }]);
      // A level set before stays (Normal too).
      const kept = await approvedPost(author, 'Normal before replying');
      await applied(writer, followOp('post', String(kept), 'normal'));
      await writer.reply(kept, 'Still normal.');
      expect(await followsOf(writer, String(kept))).toMatchObject([{ level: 'normal' }]);
      // Turned off: writing watches nothing (the read position still moves).
      await applied(writer, setAutoWatchOp(false));
      const quiet = await approvedPost(author, 'Replied to with auto-watch off');
      const quietReply = await writer.reply(quiet, 'Not watching this.');
      expect(await followsOf(writer, String(quiet))).toEqual([]);
      expect(await readOf(writer, quiet)).toMatchObject([{ readTo: quietReply.createdAt }]);
    });
  });

  describe('who may send them', () => {
    it('a post or private category the member may not see is not_found; an admin may; a silenced member may still; signed out: 401', async () => {
      const outsider = await signedIn(server.app, 'follow-outsider@example.com');
      const inside = await signedIn(server.app, 'follow-insider@example.com');
      const { category, postId: privatePost } = await privateRoom([inside]);
      const pending = await author.createPost('Pending, the author’s only');
      const cases: [Client, Op, string][] = [
        [outsider, followOp('post', String(pending)), 'not_found'],
        [outsider, readPostOp(pending, 0), 'not_found'],
        [outsider, followOp('post', String(privatePost)), 'not_found'],
        [outsider, readPostOp(privatePost, 0), 'not_found'],
        [outsider, followOp('category', category, 'muted'), 'not_found'],
        [outsider, followOp('category', 'No such category'), 'not_found'],
        [outsider, followOp('post', '999999999'), 'not_found'],
        [inside, followOp('post', String(privatePost)), 'applied'],
        [inside, readPostOp(privatePost, 0), 'applied'],
        [inside, followOp('category', category, 'watching'), 'applied'],
        [author, followOp('post', String(pending), 'muted'), 'applied'],
        [admin, followOp('post', String(pending)), 'applied'],
        [admin, readPostOp(privatePost, 5), 'applied'],
        [admin, followOp('category', category, 'muted'), 'applied'],
      ];
      for (const [client, op, expected] of cases) expect(outcome(await client.push(op)), JSON.stringify(op)).toBe(expected);
      // A category is told as a category, the same whether hidden or not there.
      for (const target of [category, 'No such category'])
        expect((await outsider.push(followOp('category', target))).body.results[0].reason).toBe('This category no longer exists.');
      // A tag is anyone's to follow: it names no post.
      expect(outcome(await outsider.push(followOp('tag', 'anything-at-all')))).toBe('applied');
      // Refusals wrote nothing.
      expect((await pulled(outsider)).follows!.map((row) => row.target)).toEqual(['anything-at-all']);
      expect((await pulled(outsider)).reads).toEqual([]);
      // Silenced: their own keeping still goes through.
      const silenced = await signedIn(server.app, 'follow-silenced@example.com');
      const seen = await approvedPost(author, 'Followed while silenced');
      await applied(admin, { id: randomUUID(), type: 'silenceMember', memberId: await idOf(silenced), silenced: true } as Op);
      expect(outcome(await silenced.push(followOp('post', String(seen)), readPostOp(seen, 0), setAutoWatchOp(false)))).toBe('applied');
      expect(
        (await silenced.push(followOp('post', String(seen)), readPostOp(seen, 10), setAutoWatchOp(true))).body.results.map(
          (r: { status: string }) => r.status,
        ),
      ).toEqual(['applied', 'applied', 'applied']);
      // Signed out.
      const visitor = new Client(server.app);
      expect((await visitor.push(followOp('tag', 'solar'))).status).toBe(401);
      expect((await visitor.push(readPostOp(seen, 0))).status).toBe(401);
      expect((await visitor.push(setAutoWatchOp(false))).status).toBe(401);
    });

    it('a read position, a level or a saved mark on a post, or a level on a category, the member may no longer see leaves their pulls; added back, they come back to a pull from where it was', async () => {
      const client = await signedIn(server.app, 'follow-leaver@example.com');
      const { category, group, postId } = await privateRoom([client]);
      await applied(
        client,
        followOp('post', String(postId)),
        followOp('category', category, 'watching'),
        readPostOp(postId, 0),
        saveOp(postId),
        flagOp(postId),
      );
      const marks = (page: FollowingPage & { saved?: { postId: number }[]; flags?: { postId: number }[] }) => ({
        follows: page
          .follows!.map((row) => row.target)
          .filter((target) => target === String(postId) || target === category)
          .sort(),
        reads: page.reads!.map((row) => row.postId).filter((id) => id === postId),
        saved: (page.saved ?? []).map((row) => row.postId).filter((id) => id === postId),
        flags: (page.flags ?? []).map((row) => row.postId).filter((id) => id === postId),
      });
      const all = { follows: [String(postId), category].sort(), reads: [postId], saved: [postId], flags: [postId] };
      expect(marks(await pulled(client))).toEqual(all);
      await applied(admin, { id: randomUUID(), type: 'removeGroupMember', groupId: group, memberId: await idOf(client) } as Op);
      const removed = await pulled(client);
      expect(marks(removed)).toEqual({ follows: [], reads: [], saved: [], flags: [] });
      // The device forgot them with the post; the next pull after the Add brings them back.
      await applied(admin, { id: randomUUID(), type: 'addGroupMember', groupId: group, memberId: await idOf(client) } as Op);
      expect(marks(await pulled(client, removed.cursor))).toEqual(all);
      // The same for a category closed to the member's groups, then opened to everyone again.
      const other = randomUUID();
      await applied(admin, { id: randomUUID(), type: 'createGroup', groupId: other, name: `Group ${other.slice(0, 8)}` } as Op);
      const closed = { id: randomUUID(), type: 'editCategory', categoryId: category, name: `Room ${category.slice(0, 8)}` };
      await applied(admin, { ...closed, see: [other], post: null } as Op);
      const shut = await pulled(client);
      expect(marks(shut)).toEqual({ follows: [], reads: [], saved: [], flags: [] });
      await applied(admin, { ...closed, id: randomUUID(), see: null, post: null } as Op);
      expect(marks(await pulled(client, shut.cursor))).toEqual(all);
    });
  });

  describe('a post seen again', () => {
    it('hidden, then resubmitted and approved again: the member’s level, read position, saved mark and flag on it come back to a pull from where it was', async () => {
      const client = await signedIn(server.app, 'follow-returner@example.com');
      const postId = await approvedPost(author, 'Hidden for a while');
      await applied(client, followOp('post', String(postId)), readPostOp(postId, 0), saveOp(postId), flagOp(postId));
      await applied(admin, hidePostOp(postId, 'Checking a claim.'));
      // The device drops them with the post's tombstone; the pull after the hide is where it stands.
      const hidden = await pulled(client);
      await applied(author, editPostOp(postId, 'rejected', { title: 'Hidden for a while, sources added' }));
      await applied(admin, reviewOp(postId));
      const back = (await pulled(client, hidden.cursor)) as FollowingPage & { saved?: { postId: number }[]; flags?: { postId: number }[] };
      expect(back.posts.map((post) => post.id)).toContain(postId);
      expect(back.follows!.map((row) => row.target)).toContain(String(postId));
      expect(back.reads!.map((row) => row.postId)).toContain(postId);
      expect((back.saved ?? []).map((row) => row.postId)).toContain(postId);
      expect((back.flags ?? []).map((row) => row.postId)).toContain(postId);
    });
  });

  /** A hostile operation is refused: the whole push (400) when its wire shape is wrong, else the operation (invalid). */
  const refusedAsInvalid = (answer: Answer) => (answer.status === 400 ? 'invalid' : outcome(answer));

  describe('limits and hostile inputs', () => {
    it('at most 500 categories and tags with a level other than Normal; Normal never counts', async () => {
      const collector = await signedIn(server.app, 'follow-collector@example.com');
      // 499 tags written straight into the table (a test of the limit, not of 499 pushes).
      await server.db.query(
        `INSERT INTO follows (user_id, kind, target, level, at, seq)
         SELECT u.id, 'tag', 'tag-' || n, 'watching', 1, 0 FROM users u, generate_series(1, ${FOLLOW_LIMITS.topics - 1}) n WHERE u.email = $1`,
        ['follow-collector@example.com'],
      );
      await applied(
        collector,
        followOp('tag', 'normal-one', 'normal'),
        followOp('post', String(await approvedPost(author, 'Posts never count')), 'muted'),
      );
      await applied(collector, followOp('tag', 'the-500th', 'muted'));
      const refused = resultOf(await collector.push(followOp('tag', 'the-501st')));
      expect(refused).toMatchObject({ status: 'refused', code: 'invalid' });
      expect(refused.reason).toContain(String(FOLLOW_LIMITS.topics));
      // A Normal row kept does not make room, nor slip past the limit when raised.
      expect(outcome(await collector.push(followOp('tag', 'normal-one', 'watching')))).toBe('invalid');
      // Normal is always allowed, a level already counted may change, and setting one back to Normal makes room.
      await applied(
        collector,
        followOp('category', 'Trends', 'normal'),
        followOp('tag', 'tag-1', 'muted'),
        followOp('tag', 'tag-2', 'normal'),
      );
      await applied(collector, followOp('tag', 'the-501st'));
    });

    it('refuses hostile targets and read positions as invalid, and writes nothing', async () => {
      const hostile = await signedIn(server.app, 'follow-hostile@example.com');
      const postId = await approvedPost(author, 'Hostile inputs');
      const ops: Op[] = [
        followOp('tag', 'x'.repeat(41)),
        followOp('category', 'c'.repeat(101)),
        followOp('tag', 'y'.repeat(10_000)),
        followOp('tag', 42),
        followOp('tag', ['solar']),
        followOp('tag', '   '),
        followOp('tag', 'bell\u0007'),
        followOp('tag', 'nul\u0000'),
        followOp('category', 'Trends\nNews'),
        followOp('tag', 'solar', 'loud'),
        followOp('planet', 'solar'),
        followOp('post', '0'),
        followOp('post', String(2 ** 60)),
        followOp('post', '-3'),
        followOp('post', '1.5'),
        followOp('post', ' 7'),
        readPostOp(postId, -1),
        readPostOp(postId, 1.5),
        readPostOp(postId, '100'),
        readPostOp(0, 0),
        readPostOp(2 ** 60, 0),
        setAutoWatchOp('yes'),
      ];
      for (const op of ops) {
        const answer = await hostile.push(op);
        expect(refusedAsInvalid(answer), JSON.stringify(op)).toBe('invalid');
      }
      const page = await pulled(hostile);
      expect(page.follows).toEqual([]);
      expect(page.reads).toEqual([]);
      expect(page.preferences).toBeNull();
    });
  });

  describe('the pull', () => {
    it('a protocol 7 pull carries no follows, no reads and no autoWatch', async () => {
      const older = await signedIn(server.app, 'follow-older@example.com');
      const postId = await approvedPost(older, 'Followed by a newer device');
      await applied(older, followOp('tag', 'solar'), readPostOp(postId, 9), setAutoWatchOp(false));
      const newest = await pulled(older);
      expect(newest.follows!.length).toBeGreaterThan(0);
      expect(newest.reads!.length).toBeGreaterThan(0);
      const page = (await older.pull(0, 1000, 7)).body as Record<string, unknown>;
      expect(page).not.toHaveProperty('follows');
      expect(page).not.toHaveProperty('reads');
      expect(page.preferences).not.toHaveProperty('autoWatch');
    });

    it('pages never split a change number with follows and reads among the rows; every size gives the same rows', async () => {
      const pager = await signedIn(server.app, 'follow-pager@example.com');
      const postId = await approvedPost(pager, 'Paged following');
      await pager.reply(postId, 'A paged reply.');
      await applied(
        pager,
        followOp('tag', 'paged'),
        followOp('category', 'Trends', 'watching'),
        readPostOp(postId, 1),
        setAutoWatchOp(false),
      );
      const rows = (pages: Page[]) => ({
        follows: pages.flatMap((page) => page.follows ?? []).map((row) => `${row.kind}:${row.target}:${row.level}:${row.seq}`),
        reads: pages.flatMap((page) => page.reads ?? []).map((row) => `${row.postId}:${row.readTo}:${row.seq}`),
      });
      const whole = rows(await allPages(pager, 0, 1000));
      expect(whole.follows).toHaveLength(3);
      expect(whole.reads).toHaveLength(1);
      for (const limit of [1, 2, 3]) expect(rows(await allPages(pager, 0, limit)), `limit ${limit}`).toEqual(whole);
    });

    it('a change to follows, reads or preferences wakes only that member’s streams', async () => {
      const phone = await signedIn(server.app, 'stream-phone@example.com');
      const tablet = await signedIn(server.app, 'stream-phone@example.com');
      const bystander = await signedIn(server.app, 'stream-bystander@example.com');
      const postId = await approvedPost(author, 'Streamed reads');
      const mine = await openEventStream(baseUrl, tablet.cookie!);
      const theirs = await openEventStream(baseUrl, bystander.cookie!);
      // A public change both streams reach first, whatever they were told of before (changes heard late).
      const before = (await applied(author, createOp('Heard by every stream'))).body.cursor as number;
      await mine.nextCursor((cursor) => cursor >= before);
      await theirs.nextCursor((cursor) => cursor >= before);
      const pushed: number[] = [];
      for (const op of [followOp('post', String(postId)), readPostOp(postId, 11), setAutoWatchOp(false)]) {
        const answer = await applied(phone, op);
        pushed.push(answer.body.cursor);
        expect(await mine.nextCursor((cursor) => cursor >= answer.body.cursor)).toBeGreaterThanOrEqual(answer.body.cursor);
      }
      // A change everyone may see (the fence): the bystander hears it, and none of the phone's before it.
      const fence = (await applied(author, createOp('Everyone hears this one'))).body.cursor as number;
      expect(await theirs.nextCursor(() => true)).toBe(fence);
      mine.close();
      theirs.close();
    });
  });

  describe('the forum’s pages and search', () => {
    it('leave out what the member muted, unless the search names its category or tag and the post is not muted itself', async () => {
      const muter = await signedIn(server.app, 'follow-muter@example.com');
      const word = `zebrafinch${Date.now() % 100000}`;
      const inMuted = await approvedPost(author, `${word} in a muted category`, { category: 'Case Studies' });
      const tagged = await approvedPost(author, `${word} with a muted tag`, { tags: ['Noisy'] });
      const mutedPost = await approvedPost(author, `${word} muted itself`, { category: 'Case Studies' });
      const watchedTag = await approvedPost(author, `${word} in a muted category, watched itself`, {
        category: 'Case Studies',
        tags: ['Noisy'],
      });
      const plain = await approvedPost(author, `${word} plain`);
      await applied(
        muter,
        followOp('category', 'Case Studies', 'muted'),
        followOp('tag', 'noisy', 'muted'),
        followOp('post', String(mutedPost), 'muted'),
        followOp('post', String(watchedTag), 'watching'),
      );
      const search = async (client: Client, q: string, category = 'All') => {
        const answer = await client.request(
          'GET',
          `/api/search?q=${encodeURIComponent(q)}&category=${encodeURIComponent(category)}&limit=50`,
        );
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return (answer.body.posts as WirePost[]).map((post) => post.id).sort((a, b) => a - b);
      };
      const sorted = (...ids: number[]) => ids.sort((a, b) => a - b);
      expect(await search(muter, word)).toEqual(sorted(watchedTag, plain));
      expect(await search(reader, word)).toEqual(sorted(inMuted, tagged, mutedPost, watchedTag, plain));
      expect(await search(muter, `${word} category:case`)).toEqual(sorted(inMuted, watchedTag));
      expect(await search(muter, word, 'Case Studies')).toEqual(sorted(inMuted, watchedTag));
      expect(await search(muter, `${word} tag:noisy`)).toEqual(sorted(tagged, watchedTag));
      // The forum's newest pages leave them out; a category's page names its category.
      const page = async (url: string) => {
        const answer = await muter.request('GET', url);
        expect(answer.status).toBe(200);
        return (answer.body.posts as WirePost[]).map((post) => post.id);
      };
      const newest = await page('/api/posts?part=newest&limit=500');
      expect(newest).toEqual(expect.arrayContaining([plain, watchedTag]));
      for (const gone of [inMuted, tagged, mutedPost]) expect(newest).not.toContain(gone);
      const category = await page('/api/posts?part=newest&category=Case%20Studies&limit=500');
      expect(category).toEqual(expect.arrayContaining([inMuted, watchedTag]));
      expect(category).not.toContain(mutedPost);
      const readersPage = (await reader.request('GET', '/api/posts?part=newest&limit=500')).body.posts as WirePost[];
      expect(readersPage.map((post) => post.id)).toEqual(expect.arrayContaining([inMuted, tagged, mutedPost]));
    });
  });
});
