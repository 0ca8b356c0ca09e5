// Saved posts and preferences on the server (protocol version 5): saved posts (only what is on the
// forum, kept when the post leaves it, unsaves that sync), the theme and the display name that follow
// a member to every device (a rename reaching every post and reply, every protocol version, and the
// session), pulls by protocol version with pages that never split a change number, the live stream,
// full-text search (ranking, phrases, each filter, visibility, limit and total, the index used on
// 10,000 posts) and member pages (counts, only what every member may see, 400/401/404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberId } from '../../../../src/shared/members';
import { parseQuery } from '../../../../src/shared/search-language';
import { ERRORS } from '../../../../src/shared/errors';
import {
  MAX_SEARCH_LIMIT,
  memberProfileSchema,
  PROTOCOL_VERSION,
  searchResponseSchema,
  type WireMember,
  type WirePost,
  type WirePreferences,
  type WireReply,
  type WireSaved,
} from '../../../../src/shared/protocol';
import { validateName } from '../../../../src/shared/validation';
import { changeHead } from '../../../../server/db/sync/changes';
import { searchStatement } from '../../../../server/db/search/search';
import { BAD_MEMBER_ID_MESSAGE } from '../../../../server/routes/api/members';
import { EMPTY_SEARCH_MESSAGE, UNKNOWN_CATEGORY_MESSAGE } from '../../../../server/routes/api/search';
import {
  Client,
  createOp,
  deletePostOp,
  flagOp,
  hidePostOp,
  hideReplyOp,
  likeOp,
  renameOp,
  replyOp,
  reviewOp,
  saveOp,
  setThemeOp,
  signedIn,
  type Answer,
} from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { listen, testServer, type TestServer } from '../../support/app';
import { allPages } from '../../support/pages';
import { openEventStream } from '../../support/sse';

const resultOf = (answer: Answer) => answer.body.results[0];
const outcome = (answer: Answer) => {
  const result = resultOf(answer);
  return result.status === 'refused' ? result.code : result.status;
};

interface FullPage {
  posts: WirePost[];
  replies: WireReply[];
  saved: WireSaved[];
  preferences: WirePreferences | null;
  members: WireMember[];
  cursor: number;
  more: boolean;
}

describe.each(BACKENDS)('saved posts and preferences on %s', (backend) => {
  let server: TestServer;
  let baseUrl: string;
  let admin: Client;
  let author: Client;
  let other: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    baseUrl = await listen(server);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    author = await signedIn(server.app, 'author@example.com');
    other = await signedIn(server.app, 'other@example.com');
  });
  afterAll(() => server.close());

  /** A post by `client`, approved by the admin (its text and fields as given). */
  async function approvedPost(client: Client, title = 'An approved post', fields: Record<string, unknown> = {}): Promise<number> {
    const answer = await client.push(createOp(title, fields));
    expect(outcome(answer)).toBe('applied');
    const postId = resultOf(answer).postId as number;
    expect(outcome(await admin.push(reviewOp(postId)))).toBe('applied');
    return postId;
  }
  async function pulled(client: Client, after = 0, protocol = PROTOCOL_VERSION): Promise<FullPage> {
    const answer = await client.pull(after, 1000, protocol);
    expect(answer.status).toBe(200);
    return answer.body as FullPage;
  }
  const savedOf = async (client: Client, postId: number) => (await pulled(client)).saved.filter((row) => row.postId === postId);

  describe('save', () => {
    it('saves an approved post for this member only; a retry is a duplicate; an unsave syncs as saved false', async () => {
      const postId = await approvedPost(author, 'Worth keeping');
      const before = Date.now();
      const op = saveOp(postId);
      const first = await other.push(op);
      // The answer names the post the save is about, as this member sees it (every operation's answer does).
      expect(resultOf(first)).toEqual({
        id: op.id,
        status: 'applied',
        seq: expect.any(Number),
        postId,
        post: expect.objectContaining({ id: postId, title: 'Worth keeping' }),
      });
      const [row] = await savedOf(other, postId);
      expect(row).toMatchObject({ postId, saved: true });
      expect(row!.at).toBeGreaterThanOrEqual(before);
      expect(first.body.cursor).toBeGreaterThanOrEqual(row!.seq);
      // Nobody else's pull carries it.
      expect(await savedOf(author, postId)).toEqual([]);
      expect(await savedOf(admin, postId)).toEqual([]);
      // The same op again: duplicate, with the post; nothing written.
      expect(resultOf(await other.push(op))).toMatchObject({ status: 'duplicate', postId, post: { id: postId } });
      expect(await savedOf(other, postId)).toEqual([row]);
      // Another member's retry of that op id is a conflict.
      expect(outcome(await author.push(op))).toBe('conflict');
      // Unsaved: the row stays, saved false, under a new change number (other devices drop it).
      expect(outcome(await other.push(saveOp(postId, false)))).toBe('applied');
      const [unsaved] = await savedOf(other, postId);
      expect(unsaved).toMatchObject({ postId, saved: false });
      expect(unsaved!.seq).toBeGreaterThan(row!.seq);
      // Saved again: one row per member and post.
      expect(outcome(await other.push(saveOp(postId)))).toBe('applied');
      expect((await savedOf(other, postId)).map((saved) => saved.saved)).toEqual([true]);
      const [stored] = await server.db.query('SELECT count(*) AS n FROM saved_posts WHERE post_id = $1', [postId]);
      expect(Number(stored!.n)).toBe(1);
    });

    it('a pull that carries a save carries the saved post and its replies too, whatever the cursor (a device that freed space)', async () => {
      const postId = await approvedPost(author, 'Saved after the space was freed');
      const reply = await author.reply(postId, 'A reply worth keeping.');
      const unsavedId = await approvedPost(author, 'Unsaved after the space was freed');
      const cursor = (await pulled(other)).cursor;
      expect(outcome(await other.push(saveOp(postId)))).toBe('applied');
      expect(outcome(await other.push(saveOp(unsavedId, false)))).toBe('applied');
      const page = await pulled(other, cursor);
      expect(page.saved.map((row) => [row.postId, row.saved])).toEqual([
        [postId, true],
        [unsavedId, false],
      ]);
      expect(page.posts.map((post) => post.id)).toEqual([postId]);
      expect(page.replies.map((one) => [one.id, one.content])).toEqual([[reply.id, 'A reply worth keeping.']]);
    });

    it('refuses what is not on the forum: not_saveable for a post one can see, not_found for one one cannot', async () => {
      const pending = await author.createPost('Pending, not saveable');
      expect(outcome(await author.push(saveOp(pending)))).toBe('not_saveable');
      expect(outcome(await admin.push(saveOp(pending)))).toBe('not_saveable');
      expect(outcome(await other.push(saveOp(pending)))).toBe('not_found');
      expect(outcome(await other.push(saveOp(123)))).toBe('not_found');
      const refusal = resultOf(await author.push(saveOp(pending)));
      expect(refusal.reason).toBe(ERRORS.not_saveable.message);
      // Unsaving what one never saved and cannot see is not_found too; one's own pending post: fine.
      expect(outcome(await other.push(saveOp(123, false)))).toBe('not_found');
      expect(outcome(await other.push(saveOp(pending, false)))).toBe('not_found');
      expect(outcome(await author.push(saveOp(pending, false)))).toBe('applied');
      const [count] = await server.db.query('SELECT count(*) AS n FROM saved_posts WHERE post_id = $1 AND saved', [pending]);
      expect(Number(count!.n)).toBe(0);
    });

    it('a saved post that leaves the forum keeps its row, and can still be unsaved', async () => {
      const hidden = await approvedPost(author, 'Saved, then hidden');
      const deleted = await approvedPost(author, 'Saved, then deleted');
      expect(outcome(await other.push(saveOp(hidden), saveOp(deleted)))).toBe('applied');
      expect(outcome(await admin.push(hidePostOp(hidden, 'Gone.')))).toBe('applied');
      expect(outcome(await author.push(deletePostOp(deleted)))).toBe('applied');
      expect(await savedOf(other, hidden)).toMatchObject([{ saved: true }]);
      expect(await savedOf(other, deleted)).toMatchObject([{ saved: true }]);
      // Saving it again is refused (it is no longer there to see); unsaving is applied.
      expect(outcome(await other.push(saveOp(hidden)))).toBe('not_found');
      expect(outcome(await other.push(saveOp(hidden, false)))).toBe('applied');
      expect(outcome(await other.push(saveOp(deleted, false)))).toBe('applied');
      expect(await savedOf(other, hidden)).toMatchObject([{ saved: false }]);
      expect(await savedOf(other, deleted)).toMatchObject([{ saved: false }]);
    });
  });

  describe('preferences', () => {
    it('setTheme: the member’s devices pull the theme under a new change number; a retry is a duplicate', async () => {
      const phone = await signedIn(server.app, 'themer@example.com');
      const laptop = await signedIn(server.app, 'themer@example.com');
      expect((await pulled(laptop)).preferences).toBeNull();
      const op = setThemeOp('dark');
      const pushed = await phone.push(op);
      expect(resultOf(pushed)).toEqual({ id: op.id, status: 'applied', seq: expect.any(Number) });
      const { preferences } = await pulled(laptop);
      expect(preferences).toMatchObject({ theme: 'dark', name: 'Themer' });
      expect(pushed.body.cursor).toBeGreaterThanOrEqual(preferences!.seq);
      expect(resultOf(await phone.push(op))).toEqual({ id: op.id, status: 'duplicate', seq: resultOf(pushed).seq });
      // Nothing new after that change number: no preferences; another member never gets them.
      expect((await pulled(laptop, preferences!.seq)).preferences).toBeNull();
      expect((await pulled(other)).preferences?.theme ?? 'system').toBe('system');
      expect(outcome(await phone.push(setThemeOp('light')))).toBe('applied');
      const changed = (await pulled(laptop, preferences!.seq)).preferences!;
      expect(changed).toMatchObject({ theme: 'light', name: 'Themer' });
      expect(changed.seq).toBeGreaterThan(preferences!.seq);
      const [row] = await server.db.query(`SELECT theme FROM users WHERE email = 'themer@example.com'`);
      expect(row!.theme).toBe('light');
    });

    it('a theme outside THEMES fails the envelope: 400 invalid as JSON, nothing applied', async () => {
      const answer = await other.request('POST', '/api/ops', { ops: [{ ...setThemeOp('dark'), theme: 'purple' }] });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid');
      expect(typeof answer.body.error.message).toBe('string');
      expect(JSON.stringify(answer.body)).not.toMatch(/\bat \w+ \(/);
    });

    it('rename: refused with validateName’s sentence; applied trimmed as one change (a `members` row), whatever the member wrote', async () => {
      const renamer = await signedIn(server.app, 'renamer@example.com');
      const postId = await approvedPost(renamer, 'Written before the rename');
      const pending = await renamer.createPost('Pending before the rename');
      const reply = await renamer.reply(postId, 'A reply before the rename.');
      const flag = resultOf(await renamer.push(flagOp(await approvedPost(author, 'Flagged by the renamer'))));
      for (const bad of ['', '   ', 42, 'n'.repeat(101), 'a\u0000b', 'x\uD83Dy', 'Ren\u200Bamer', '\u202Erenamer']) {
        const refusal = resultOf(await renamer.push(renameOp(bad)));
        const sentence = validateName(typeof bad === 'string' ? bad : '')!.message;
        expect(refusal).toMatchObject({ status: 'refused', code: 'invalid', reason: sentence });
      }
      expect((await renamer.request('GET', '/api/session')).body.user.name).toBe('Renamer');
      const seen = await pulled(other);
      const headBefore = await changeHead(server.db);
      const op = renameOp('  Rena Mer  ');
      const pushed = await renamer.push(op);
      expect(resultOf(pushed)).toEqual({ id: op.id, status: 'applied', seq: expect.any(Number) });
      // One change number, whatever the member wrote.
      expect(await changeHead(server.db)).toBe(headBefore + 1);
      expect(resultOf(await renamer.push(op)).status).toBe('duplicate');
      expect((await renamer.request('GET', '/api/session')).body.user).toMatchObject({ email: 'renamer@example.com', name: 'Rena Mer' });
      // The member's own devices pull it in their preferences, every device as one `members` row ...
      const own = await pulled(renamer, seen.cursor);
      expect(own.preferences).toMatchObject({ name: 'Rena Mer', theme: 'system' });
      const seq = own.preferences!.seq;
      expect(pushed.body.cursor).toBeGreaterThanOrEqual(seq);
      expect(own.posts.filter((post) => [postId, pending].includes(post.id))).toEqual([]);
      const others = await pulled(other, seen.cursor);
      const renamerId = (await renamer.request('GET', '/api/session')).body.user.id;
      expect(others.members).toEqual([{ id: renamerId, name: 'Rena Mer', role: 'user', seq }]);
      expect(others.posts).toEqual([]);
      expect(others.replies).toEqual([]);
      expect(others.preferences).toBeNull();
      // ... and whatever is pulled from then on is named as the member is now, for every protocol version.
      const fresh = await pulled(other);
      expect(fresh.posts.filter((post) => post.id === postId).map((post) => [post.author, post.authorId])).toEqual([
        ['Rena Mer', renamerId],
      ]);
      expect(fresh.replies.filter((one) => one.id === reply.id).map((one) => one.author)).toEqual(['Rena Mer']);
      for (const protocol of [1, 2, 3, 4, 5]) {
        const old = (await other.pull(0, 1000, protocol)).body as FullPage;
        expect(old.posts.filter((post) => post.id === postId).map((post) => post.author)).toEqual(['Rena Mer']);
        expect(Object.keys(old)).not.toContain('members');
      }
      // An admin's device gets the member row with the email (it names flaggers by it), and the flag as it is now.
      const adminPage = (await admin.pull(seen.cursor)).body as FullPage;
      expect(adminPage.members).toEqual([{ id: renamerId, name: 'Rena Mer', role: 'user', email: 'renamer@example.com', seq }]);
      const flags = ((await admin.pull(0)).body as { flags: { id: string; flagger: string }[] }).flags;
      expect(flags.filter((one) => one.id === flag.flag.id).map((one) => one.flagger)).toEqual(['Rena Mer']);
      // Renaming to the same name is one change again (the member row), never one per post.
      expect(outcome(await renamer.push(renameOp('Rena Mer')))).toBe('applied');
      const again = await pulled(other, own.cursor);
      expect(again.posts).toEqual([]);
      expect(again.members.map((member) => member.name)).toEqual(['Rena Mer']);
    });

    it('names are unique among members, ignoring case, width and invisible characters; the staff’s words are the admin’s', async () => {
      const first = await signedIn(server.app, 'unique-one@example.com');
      expect(outcome(await first.push(renameOp('Quinn Harper')))).toBe('applied');
      const second = await signedIn(server.app, 'unique-two@example.com');
      for (const same of [
        'quinn harper',
        'QUINN HARPER',
        'Ｑｕｉｎｎ Ｈａｒｐｅｒ',
        'Quinn  Harper',
        'Quinn\u00ADHarper',
        'Qu\u0456nn Harper',
      ]) {
        const refusal = resultOf(await second.push(renameOp(same)));
        expect(refusal.code, same).toBe(same.includes('\u00AD') ? 'invalid' : 'name_taken');
      }
      for (const reserved of [
        'Admin',
        'admin',
        'ADMIN',
        'Ａｄｍｉｎ',
        'Site Admin',
        'admin_team',
        'Moderator',
        'Staff',
        'System',
        'Insight Exchange',
        'InsightExchange Team',
        'Аdmin',
      ]) {
        const refusal = resultOf(await second.push(renameOp(reserved)));
        expect(refusal, reserved).toMatchObject({
          code: 'invalid',
          reason: 'This name is kept for the forum’s staff. Choose another one.',
        });
      }
      // The admin may carry them (the admin's own name is Admin).
      expect(outcome(await admin.push(renameOp('Site Admin')))).toBe('applied');
      expect(outcome(await admin.push(renameOp('Admin')))).toBe('applied');
      // A member freeing a name lets another take it.
      expect(outcome(await first.push(renameOp('Quinn H.')))).toBe('applied');
      expect(outcome(await second.push(renameOp('quinn harper')))).toBe('applied');
    });

    it('a post and a reply sent in the same push after a rename carry the new name', async () => {
      const writer = await signedIn(server.app, 'batch-renamer@example.com');
      const postId = await approvedPost(writer, 'Before the batch');
      const create = createOp('Written after the rename');
      const reply = replyOp(postId, 'Replied after the rename.');
      const answer = await writer.push(renameOp('Bea Renamed'), create, reply);
      expect(answer.body.results.map((result: { status: string }) => result.status)).toEqual(['applied', 'applied', 'applied']);
      const page = await pulled(other);
      expect(page.posts.find((post) => post.id === postId)?.author).toBe('Bea Renamed');
      expect(page.replies.find((one) => one.id === reply.id)?.author).toBe('Bea Renamed');
      const own = await pulled(writer);
      expect(own.posts.find((post) => post.title === 'Written after the rename')?.author).toBe('Bea Renamed');
    });

    it('a version-4 pull has exactly its keys (no saved, no preferences); a version-5 pull has them', async () => {
      const member = await signedIn(server.app, 'older@example.com');
      await member.push(setThemeOp('dark'), saveOp(await approvedPost(author, 'Saved for an older device')));
      const v4 = (await member.pull(0, 1000, 4)).body;
      expect(Object.keys(v4).sort()).toEqual(['cursor', 'flags', 'more', 'notifications', 'posts', 'removed', 'replies']);
      const v5 = (await member.pull(0, 1000, 5)).body;
      expect(Object.keys(v5).sort()).toEqual([
        'cursor',
        'flags',
        'more',
        'notifications',
        'posts',
        'preferences',
        'removed',
        'replies',
        'saved',
      ]);
      expect(v5.preferences.theme).toBe('dark');
      expect(v5.saved).toHaveLength(1);
      const v6 = (await member.pull(0, 1000, 6)).body;
      expect(Object.keys(v6).sort()).toEqual([...Object.keys(v5), 'members'].sort());
    });
  });

  it('the live stream announces each save and preference change to the member’s other sessions', async () => {
    const member = await signedIn(server.app, 'streaming@example.com');
    const elsewhere = await signedIn(server.app, 'streaming@example.com');
    const postId = await approvedPost(author, 'Saved live');
    const stream = await openEventStream(baseUrl, elsewhere.cookie!);
    await stream.nextCursor(() => true);
    for (const op of [setThemeOp('dark'), saveOp(postId), renameOp('Streamed Name')]) {
      const pushed = await member.push(op);
      expect(outcome(pushed)).toBe('applied');
      expect(await stream.nextCursor((cursor) => cursor >= pushed.body.cursor)).toBeGreaterThanOrEqual(pushed.body.cursor);
    }
    stream.close();
    const page = await pulled(elsewhere);
    expect(page.preferences).toMatchObject({ theme: 'dark', name: 'Streamed Name' });
    expect(page.saved.map((row) => row.postId)).toContain(postId);
  });

  it('pages never split a change number, with saved posts and preferences among the rows; every size gives the same rows', async () => {
    const member = await signedIn(server.app, 'pager@example.com');
    const mine = await approvedPost(member, 'The pager’s post');
    await member.reply(mine, 'The pager’s reply.');
    for (let i = 0; i < 3; i += 1) await member.push(saveOp(await approvedPost(author, `Paged save ${i}`)));
    await member.push(setThemeOp('dark'));
    await member.push(renameOp('Pager Renamed'));
    await member.push(saveOp(mine));
    const whole = await pulled(member);
    const key = (page: { posts: WirePost[]; replies: WireReply[]; saved: WireSaved[]; preferences: (WirePreferences | null)[] }) => ({
      posts: page.posts.map((post) => `${post.id}:${post.seq}`).sort(),
      replies: page.replies.map((reply) => `${reply.id}:${reply.seq}`).sort(),
      saved: page.saved.map((row) => `${row.postId}:${row.seq}`).sort(),
      preferences: page.preferences.filter(Boolean).map((row) => `${row!.name}:${row!.theme}:${row!.seq}`),
    });
    const expected = key({ ...whole, preferences: [whole.preferences] });
    expect(expected.saved).toHaveLength(4);
    expect(expected.preferences).toHaveLength(1);
    for (const limit of [1, 2, 3, 7]) {
      const pages = await allPages(member, 0, limit);
      const merged = {
        posts: pages.flatMap((page) => page.posts),
        replies: pages.flatMap((page) => page.replies ?? []),
        saved: pages.flatMap((page) => page.saved ?? []),
        preferences: pages.map((page) => page.preferences ?? null),
      };
      expect(key(merged)).toEqual(expected);
      const seqsOf = pages.map(
        (page) =>
          new Set(
            [...page.posts, ...(page.replies ?? []), ...(page.saved ?? []), ...(page.preferences ? [page.preferences] : [])].map(
              (row) => row.seq,
            ),
          ),
      );
      for (let i = 1; i < seqsOf.length; i += 1) {
        for (const seq of seqsOf[i]!) expect(seqsOf.slice(0, i).some((earlier) => earlier.has(seq))).toBe(false);
      }
    }
  });

  describe('GET /api/search', () => {
    let searcher: Client;
    let zoe: Client;
    const ids: Record<string, number> = {};
    const search = (client: Client, q: string, extra = '') =>
      client.request('GET', `/api/search?q=${encodeURIComponent(q)}${extra}`, undefined, {
        'x-insight-protocol': String(PROTOCOL_VERSION),
      });
    const found = async (client: Client, q: string, extra = '') => {
      const answer = await search(client, q, extra);
      expect(answer.status).toBe(200);
      const body = searchResponseSchema.parse(answer.body);
      return body.posts.map((post) => Object.entries(ids).find(([, id]) => id === post.id)?.[0] ?? `other:${post.id}`);
    };

    beforeAll(async () => {
      searcher = await signedIn(server.app, 'searcher@example.com');
      zoe = new Client(server.app);
      expect((await zoe.join('zoe@example.com', undefined, 'Zoë Ångström')).status).toBe(200);
      // In order of creation (newest last): the words and filters each test looks for.
      ids.inContent = await approvedPost(searcher, 'A note on panels', {
        content: 'We met a quokka while zigzagging through the survey fatigue study.',
        category: 'Trends',
        tags: ['nps'],
      });
      ids.inTitle = await approvedPost(zoe, 'Quokka sightings', {
        content: 'Fatigue in surveys is real.',
        category: 'AI & Technology',
        tags: ['#NPS', 'panels'],
      });
      ids.reversed = await approvedPost(zoe, 'Fatigue of the survey kind', {
        content: 'The fatigue survey ran twice; no quokkas.',
        category: 'Qualitative',
      });
      ids.pendingOther = await zoe.createPost('Quokka zorbly, of Zoë', { content: 'A zorbly quokka.', category: 'Trends' });
      ids.pendingMine = await searcher.createPost('Quokka zorbly, mine', { content: 'My zorbly quokka.', category: 'Trends' });
      ids.rejectedMine = await searcher.createPost('Quokka rejected, mine', { content: 'My rejected quokka.', category: 'Trends' });
      expect(outcome(await admin.push(reviewOp(ids.rejectedMine, 'reject')))).toBe('applied');
    });

    it('ranks title matches above content matches, finds stems, newest first among equals', async () => {
      expect(await found(searcher, 'quokka')).toEqual(['inTitle', 'reversed', 'inContent']);
      // Stemming: "quokkas" and "zigzags" find "quokka" and "zigzagging".
      expect(await found(searcher, 'quokkas')).toEqual(['inTitle', 'reversed', 'inContent']);
      expect(await found(searcher, 'zigzags')).toEqual(['inContent']);
      // Words of a query must all be there.
      expect(await found(searcher, 'quokka sightings')).toEqual(['inTitle']);
      expect(await found(searcher, 'zzyzx')).toEqual([]);
    });

    it('a quoted phrase matches those words in that order only', async () => {
      expect(await found(searcher, '"survey fatigue"')).toEqual(['inContent']);
      expect(await found(searcher, '"fatigue survey"')).toEqual(['reversed']);
      expect(await found(searcher, 'quokka "fatigue survey"')).toEqual(['reversed']);
    });

    it('filters narrow as on the device: author, category (substring, any case), tag (exact), the category dropdown', async () => {
      expect(await found(searcher, 'quokka author:zoë')).toEqual(['inTitle', 'reversed']);
      expect(await found(searcher, 'quokka author:ÅNGSTR')).toEqual(['inTitle', 'reversed']);
      expect(await found(searcher, 'quokka author:"zoë å"')).toEqual(['inTitle', 'reversed']);
      expect(await found(searcher, 'quokka author:nobody')).toEqual([]);
      // Filters of one kind are alternatives; kinds combine.
      expect(await found(searcher, 'quokka category:tech category:qual')).toEqual(['inTitle', 'reversed']);
      expect(await found(searcher, 'quokka category:TECH author:zoë')).toEqual(['inTitle']);
      expect(await found(searcher, 'quokka tag:nps')).toEqual(['inTitle', 'inContent']);
      expect(await found(searcher, 'quokka tag:#nps')).toEqual(['inTitle', 'inContent']);
      expect(await found(searcher, 'quokka tag:np')).toEqual([]);
      expect(await found(searcher, 'quokka tag:panels')).toEqual(['inTitle']);
      expect(await found(searcher, 'quokka', '&category=Trends')).toEqual(['inContent']);
      expect(await search(searcher, 'quokka', '&category=Trend')).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid', message: UNKNOWN_CATEGORY_MESSAGE } },
      });
      expect(await found(searcher, 'quokka', '&category=All')).toEqual(['inTitle', 'reversed', 'inContent']);
    });

    it('the same filters as matchesFilters decides them (the shared rule) on the posts found', async () => {
      const pulledPosts = (await pulled(searcher)).posts.filter((post) => post.status === 'approved');
      const { matchesFilters } = await import('../../../../src/shared/search-language');
      // Each query with the posts of this block it must find: an empty answer against an empty expectation fails.
      const queries: [string, string[]][] = [
        ['author:zoë', ['inTitle', 'reversed']],
        ['category:tech', ['inTitle']],
        ['tag:nps', ['inContent', 'inTitle']],
        ['author:ångström tag:panels', ['inTitle']],
        ['category:qual category:trends', ['inContent', 'reversed']],
      ];
      for (const [q, mustFind] of queries) {
        const expected = pulledPosts
          .filter((post) => matchesFilters(post, parseQuery(q), 'searcher@example.com'))
          .sort((a, b) => b.id - a.id)
          .map((post) => post.id);
        const answer = await search(searcher, q, `&limit=${MAX_SEARCH_LIMIT}`);
        expect(answer.body.posts.map((post: WirePost) => post.id)).toEqual(expected.slice(0, MAX_SEARCH_LIMIT));
        expect(answer.body.total).toBe(expected.length);
        expect(expected, q).toEqual(expect.arrayContaining(mustFind.map((name) => ids[name])));
      }
    });

    it('is:mine keeps the member’s own approved posts; only approved posts are ever found, for admins too', async () => {
      expect(await found(searcher, 'quokka is:mine')).toEqual(['inContent']);
      expect(await found(zoe, 'quokka is:mine')).toEqual(['inTitle', 'reversed']);
      // Pending and rejected posts are not on the forum: never found, not even by their author.
      for (const query of ['zorbly is:mine', 'rejected is:mine', 'zorbly', 'rejected']) expect(await found(searcher, query)).toEqual([]);
      expect(await found(admin, 'quokka is:mine')).toEqual([]);
      for (const client of [searcher, zoe, admin, other]) {
        expect(await found(client, 'quokka')).toEqual(['inTitle', 'reversed', 'inContent']);
        expect(await found(client, 'zorbly')).toEqual([]);
      }
    });

    it('posts come as a pull sends them to this member; a query of filters only is newest first', async () => {
      const answer = await search(other, 'author:zoë');
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.body.posts.map((post: WirePost) => post.id)).toEqual([ids.reversed, ids.inTitle]);
      const asPulled = (await pulled(other)).posts.filter((post) => [ids.reversed, ids.inTitle].includes(post.id));
      expect([...answer.body.posts].sort((a: WirePost, b: WirePost) => a.id - b.id)).toEqual(asPulled.sort((a, b) => a.id - b.id));
      expect(JSON.stringify(answer.body)).not.toContain('zorbly');
      // The category dropdown alone is a search too.
      const category = await search(other, '', '&category=Qualitative');
      expect(category.status).toBe(200);
      expect(category.body.posts.map((post: WirePost) => post.category)).toEqual(category.body.posts.map(() => 'Qualitative') as string[]);
      expect(category.body.posts[0].id).toBe(ids.reversed);
    });

    it('limit bounds the answer; total counts every match', async () => {
      const answer = await search(searcher, 'quokka', '&limit=2');
      expect(answer.body.posts).toHaveLength(2);
      expect(answer.body.total).toBe(3);
      expect((await search(searcher, 'zzyzx')).body).toEqual({ posts: [], total: 0, more: false, matches: [] });
    });

    it('a word in a visible reply finds its post and names the reply; a hidden reply’s words are never found', async () => {
      const shown = await zoe.reply(ids.inContent, 'We saw a wallaby near the fieldwork site.');
      const hidden = await zoe.reply(ids.reversed, 'A wallaby in a hidden reply, and a numbat.');
      expect(outcome(await admin.push(hideReplyOp(hidden.id)))).toBe('applied');
      const answer = searchResponseSchema.parse((await search(other, 'wallaby')).body);
      expect(answer.posts.map((post) => post.id)).toEqual([ids.inContent]);
      expect(answer.matches).toEqual([{ postId: ids.inContent, replyId: shown.id }]);
      expect(await found(other, 'numbat')).toEqual([]);
      // A post that matches by its own words is listed once, without a reply: its own words rank first.
      await zoe.reply(ids.inTitle, 'Quokka again, in a reply.');
      const both = searchResponseSchema.parse((await search(other, 'quokka')).body);
      expect(both.posts.map((post) => post.id)).toEqual([ids.inTitle, ids.reversed, ids.inContent]);
      expect(both.matches).toEqual([]);
      // Filters hold for posts found through a reply too.
      expect(await found(other, 'wallaby author:zoë')).toEqual([]);
      expect(await found(other, 'wallaby category:trends')).toEqual(['inContent']);
    });

    it('an author is found by the name members see now, after a rename', async () => {
      expect(outcome(await zoe.push(renameOp('Zoë Xylophone')))).toBe('applied');
      expect(await found(searcher, 'quokka author:xylophone')).toEqual(['inTitle', 'reversed']);
      expect(await found(searcher, 'quokka author:ångström')).toEqual([]);
      expect(outcome(await zoe.push(renameOp('Zoë Ångström')))).toBe('applied');
      expect(await found(searcher, 'quokka author:ångström')).toEqual(['inTitle', 'reversed']);
    });

    it('bad searches are 400 invalid with a readable message; signed out is 401; never a stack trace', async () => {
      for (const q of ['', '   ', '""', 'author:\u0000', 'tag:" "']) {
        expect(await search(searcher, q)).toMatchObject({
          status: 400,
          body: { error: { code: 'invalid', message: EMPTY_SEARCH_MESSAGE } },
        });
      }
      for (const extra of ['&limit=0', `&limit=${MAX_SEARCH_LIMIT + 1}`, '&limit=ten']) {
        const answer = await search(searcher, 'quokka', extra);
        expect(answer.status).toBe(400);
        expect(answer.body.error.code).toBe('invalid');
        expect(answer.body.error.message).toMatch(/limit/);
      }
      expect(await search(searcher, 'quokka', '&category=%00')).toMatchObject({ status: 400, body: { error: { code: 'invalid' } } });
      const long = await search(searcher, 'q'.repeat(401));
      expect(long).toMatchObject({ status: 400, body: { error: { code: 'invalid' } } });
      expect(await search(new Client(server.app), 'quokka')).toMatchObject({ status: 401, body: { error: { code: 'signed_out' } } });
      // Odd text is words like any other (websearch syntax never fails).
      for (const q of ['quokka & | ! (', 'or -', 'the', '"unclosed quokka', 'tag:"', ':::', 'quo\u0000kka']) {
        const answer = await search(searcher, q);
        expect(answer.status).toBe(200);
        expect(JSON.stringify(answer.body)).not.toMatch(/\bat \w+ \(/);
      }
    });
  });

  describe('GET /api/members/:id', () => {
    it('a member’s public page: name, join date, approved posts, visible replies and likes on what is on the forum', async () => {
      const before = Date.now();
      const member = await signedIn(server.app, 'profiled@example.com');
      const first = await approvedPost(member, 'Profiled one');
      const second = await approvedPost(member, 'Profiled two');
      const hidden = await approvedPost(member, 'Profiled, then hidden');
      await member.createPost('Profiled, pending');
      await other.push(likeOp(first, 3), likeOp(second, 2), likeOp(hidden, 50));
      expect(outcome(await admin.push(hidePostOp(hidden)))).toBe('applied');
      const onForum = await approvedPost(author, 'Replied to by the profiled member');
      await member.reply(onForum, 'Visible one.');
      await member.reply(onForum, 'Visible two.');
      const hiddenReply = await member.reply(onForum, 'Hidden.');
      expect(outcome(await admin.push(hideReplyOp(hiddenReply.id)))).toBe('applied');
      const id = (await member.request('GET', '/api/session')).body.user.id;
      // A random id, not one anyone could work out from the email.
      expect(id).toMatch(/^[0-9a-f]{16}$/);
      expect(id).not.toBe(memberId('profiled@example.com'));
      const answer = await other.request('GET', `/api/members/${id}`);
      expect(answer.status).toBe(200);
      const profile = memberProfileSchema.parse(answer.body);
      expect(profile).toEqual({
        id,
        name: 'Profiled',
        role: 'user',
        joinedAt: profile.joinedAt,
        approvedPosts: 2,
        replyCount: 2,
        likesReceived: 5,
      });
      expect(profile.joinedAt).toBeGreaterThanOrEqual(before - 5_000);
      expect(profile.joinedAt).toBeLessThanOrEqual(Date.now() + 5_000);
      expect(Object.keys(answer.body).sort()).toEqual(['approvedPosts', 'id', 'joinedAt', 'likesReceived', 'name', 'replyCount', 'role']);
      expect(JSON.stringify(answer.body)).not.toContain('@');
      // The member's own page reads the same; a rename shows at once.
      expect(outcome(await member.push(renameOp('Pro Filed')))).toBe('applied');
      expect((await member.request('GET', `/api/members/${id}`)).body).toEqual({ ...profile, name: 'Pro Filed' });
      // The admin's page (the admin replied on the forum), with the role for the Admin badge.
      await admin.reply(onForum, 'A word from the admin.');
      const adminId = (await admin.request('GET', '/api/session')).body.user.id;
      expect((await author.request('GET', `/api/members/${adminId}`)).body).toMatchObject({ name: 'Admin', role: 'admin' });
    });

    it('a member with nothing on the forum and an unconfirmed address answers as an id nobody has, except to themselves; confirmed, they can be mentioned and their page opens', async () => {
      const quiet = await signedIn(server.app, 'quiet@example.com');
      const id = (await quiet.request('GET', '/api/session')).body.user.id;
      // Confirmed by the sign-up's link (issue 59): a new colleague can be mentioned, so their page answers.
      expect((await other.request('GET', `/api/members/${id}`)).body).toMatchObject({ id, approvedPosts: 0 });
      // An account made before issue 59 whose address was never confirmed: as if nobody.
      await server.db.query(`UPDATE users SET email_verified_at = NULL WHERE email = 'quiet@example.com'`);
      const pending = await quiet.createPost('Only pending so far');
      const unknown = await other.request('GET', `/api/members/0123456789abcdef`);
      const nothingYet = await other.request('GET', `/api/members/${id}`);
      expect(nothingYet.status).toBe(404);
      expect(nothingYet.body).toEqual(unknown.body);
      expect((await quiet.request('GET', `/api/members/${id}`)).body).toMatchObject({ id, approvedPosts: 0 });
      expect(outcome(await admin.push(reviewOp(pending)))).toBe('applied');
      expect((await other.request('GET', `/api/members/${id}`)).body).toMatchObject({ id, approvedPosts: 1 });
    });

    it('a sample post’s author (an account nobody signs in to) has a page without a join date', async () => {
      const [sample] = await server.db.query<{ author: string; member_id: string; email: string }>(
        `SELECT p.author, u.member_id, u.email FROM posts p JOIN users u ON u.email = p.author_email
         WHERE p.status = 'approved' AND u.password_hash = '' LIMIT 1`,
      );
      const answer = await other.request('GET', `/api/members/${sample!.member_id}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ name: sample!.author, joinedAt: null });
      expect(answer.body.approvedPosts).toBeGreaterThan(0);
      // Nobody signs in to it, with any password, at the cost of any other attempt.
      expect((await new Client(server.app).signIn(sample!.email, 'any-password-at-all')).status).toBe(401);
    });

    it('404 member_not_found for an id nobody has, 400 invalid for a malformed one, 401 signed out; JSON errors', async () => {
      expect(await other.request('GET', `/api/members/${memberId('nobody@example.com')}`)).toMatchObject({
        status: 404,
        body: { error: { code: 'member_not_found', message: ERRORS.member_not_found.message } },
      });
      for (const bad of ['xyz', 'ABCDEF0123456789', '0123456789abcdef0', '%20']) {
        expect(await other.request('GET', `/api/members/${bad}`)).toMatchObject({
          status: 400,
          body: { error: { code: 'invalid', message: BAD_MEMBER_ID_MESSAGE } },
        });
      }
      expect(await new Client(server.app).request('GET', `/api/members/${memberId('author@example.com')}`)).toMatchObject({
        status: 401,
        body: { error: { code: 'signed_out' } },
      });
    });
  });
});

describe.each(BACKENDS)('search on 10,000 posts on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer(backend);
    await server.db.query(
      `INSERT INTO posts (id, title, content, category, author, author_email, author_role, date, status, seq)
       SELECT 1000 + i, 'Post ' || i || ' on ' || (ARRAY['panels', 'surveys', 'coding', 'sampling'])[1 + i % 4],
         'Notes about ' || (ARRAY['fieldwork', 'incentives', 'weighting', 'attrition', 'recruiting'])[1 + i % 5] ||
           CASE WHEN i % 1000 = 7 THEN ' and a wombat' ELSE '' END,
         'Trends', 'Bulk', 'bulk@example.com', 'user', 'today', CASE WHEN i % 10 = 0 THEN 'pending' ELSE 'approved' END, 1
       FROM generate_series(1, 10000) AS i`,
    );
    await server.db.query('ANALYZE posts');
  });
  afterAll(() => server.close());

  it('a search by words uses the GIN index of the stored documents and answers the ranked matches', async () => {
    const viewer = { id: 0, memberId: '', email: 'viewer@example.com', name: 'Viewer', role: 'user' as const, passwordHash: '' };
    const { text, params } = searchStatement(viewer, { parsed: parseQuery('wombat'), category: 'All', limit: 50 });
    const plan = (await server.db.query<Record<string, string>>(`EXPLAIN ${text}`, params)).map((row) => Object.values(row)[0]).join('\n');
    expect(plan).toContain('post_search_doc');
    const member = await signedIn(server.app, 'viewer@example.com');
    const answer = await member.request('GET', '/api/search?q=wombat');
    expect(answer.body.total).toBe(10);
    expect(answer.body.posts.every((post: WirePost) => post.content.endsWith('a wombat'))).toBe(true);
    // The device's cursor (`after`): any cursor finds the same here (no replica); a hostile one is refused in words.
    expect((await member.request('GET', '/api/search?q=wombat&after=9007199254740991')).body.total).toBe(10);
    for (const after of ['-1', '1.5', 'abc', '9007199254740992', '1e400']) {
      const refused = await member.request('GET', `/api/search?q=wombat&after=${after}`);
      expect(refused.status, after).toBe(400);
      expect(refused.body.error.message, after).toMatch(/\S/u);
    }
  });

  it('the worst queries stay bounded: a word in every post, a word left out, forty words, filters; "100+" instead of a count', async () => {
    const member = await signedIn(server.app, 'worst@example.com');
    const ask = async (q: string) => {
      const answer = await member.request('GET', `/api/search?q=${encodeURIComponent(q)}`);
      expect(answer.status).toBe(200);
      return searchResponseSchema.parse(answer.body);
    };
    // "notes" is in every post: the 50 newest approved of the 1,000 newest matches, counted as 100+.
    const everywhere = await ask('notes');
    expect(everywhere.posts).toHaveLength(50);
    expect([everywhere.total, everywhere.more]).toEqual([100, true]);
    const notWombat = await ask('-wombat');
    expect(notWombat.posts.some((post) => post.content.includes('wombat'))).toBe(false);
    expect([notWombat.total, notWombat.more]).toEqual([100, true]);
    const forty = await ask(Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '));
    expect([forty.total, forty.more]).toEqual([0, false]);
    const filtered = await ask('notes author:bulk category:trends tag:none');
    expect(filtered.total).toBe(0);
    const wombats = await ask('wombat -weighting');
    expect(wombats.posts.every((post) => post.content.endsWith('a wombat') && !post.content.includes('weighting'))).toBe(true);
  });
});
