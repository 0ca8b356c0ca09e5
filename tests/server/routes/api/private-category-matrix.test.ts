// Who sees what, for every pair of viewer and space, on PGlite and PostgreSQL (one database per
// engine, seeded once). Viewers: an admin, the posts' author (in group A), a member of A, a member of
// B, a member of no group, and a member taken out of A. Spaces: a public category, one private to A,
// one private to A and B, and an archived one private to A. Each read (pull, pages, a post by id,
// search, a download, a like, a poll vote, an away email) answers the same table, the one rule of
// src/shared/visibility.ts; member pages and the mention list say the same to everyone (public
// facts only). Then revocation: taken out of the group, the next pull carries the categories gone
// and none of their posts, replies or notifications.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlBlobStore } from '../../../../server/attachments/storage';
import { AWAY_MS, awayRound } from '../../../../server/mail/notify';
import { mentionMarkdown } from '../../../../src/shared/mentions';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, type Op, type WirePost } from '../../../../src/shared/protocol';
import { likeOp, reviewOp, signedIn, type Answer, type Client } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

const headers = { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };

const VIEWERS = ['admin', 'author', 'memberA', 'memberB', 'noGroup', 'removed'] as const;
type ViewerName = (typeof VIEWERS)[number];
const SPACES = ['public', 'privateA', 'privateAB', 'archivedA'] as const;
type SpaceName = (typeof SPACES)[number];

const EMAILS: Record<Exclude<ViewerName, 'admin'>, string> = {
  author: 'mx-author@example.com',
  memberA: 'mx-member-a@example.com',
  memberB: 'mx-member-b@example.com',
  noGroup: 'mx-no-group@example.com',
  removed: 'mx-removed@example.com',
};
/** A word only each space's post and reply carry (search finds it, a pull's text shows it). */
const WORD: Record<SpaceName, string> = { public: 'Zephyr', privateA: 'Quokka', privateAB: 'Marmot', archivedA: 'Narwhal' };
const FILE: Record<SpaceName, string> = {
  public: 'a1'.repeat(32),
  privateA: 'b2'.repeat(32),
  privateAB: 'c3'.repeat(32),
  archivedA: 'd4'.repeat(32),
};

/** The one table every read answers: who may see each space's post. */
const SEES: Record<ViewerName, Record<SpaceName, boolean>> = {
  admin: { public: true, privateA: true, privateAB: true, archivedA: true },
  author: { public: true, privateA: true, privateAB: true, archivedA: true },
  memberA: { public: true, privateA: true, privateAB: true, archivedA: true },
  memberB: { public: true, privateA: false, privateAB: true, archivedA: false },
  noGroup: { public: true, privateA: false, privateAB: false, archivedA: false },
  removed: { public: true, privateA: false, privateAB: false, archivedA: false },
};

describe.each(BACKENDS)('who sees what in every space, on %s', (backend) => {
  let server: TestServer;
  const clients = {} as Record<ViewerName, Client>;
  const memberIds = {} as Record<ViewerName, string>;
  const posts = {} as Record<SpaceName, number>;
  const groupA = randomUUID();
  const groupB = randomUUID();
  const categories: Record<SpaceName, string> = {
    public: 'Trends',
    privateA: randomUUID(),
    privateAB: randomUUID(),
    archivedA: randomUUID(),
  };
  /** The removed member's cursor just before they were taken out of A. */
  let cursorBeforeRemoval = 0;
  let reviewerId = '';

  const get = (client: Client, path: string): Promise<Answer> => client.request('GET', path, undefined, headers);
  const applied = async (client: Client, ...ops: Op[]) => {
    const answer = await client.push(...ops);
    for (const result of answer.body?.results ?? []) expect(result, JSON.stringify(answer.body)).toMatchObject({ status: 'applied' });
    return answer;
  };
  const admin = (op: Record<string, unknown>) => applied(clients.admin, { id: randomUUID(), ...op } as Op);
  const postIds = (answer: Answer) => ((answer.body?.posts ?? []) as WirePost[]).map((post) => post.id);

  /** Every viewer × space answer of `read`, as a table to hold to SEES. */
  async function table(read: (viewer: ViewerName, space: SpaceName) => Promise<boolean>) {
    const answers = {} as Record<ViewerName, Record<SpaceName, boolean>>;
    for (const viewer of VIEWERS) {
      answers[viewer] = {} as Record<SpaceName, boolean>;
      for (const space of SPACES) answers[viewer][space] = await read(viewer, space);
    }
    return answers;
  }

  beforeAll(async () => {
    server = await testServer(backend);
    clients.admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const [viewer, email] of Object.entries(EMAILS)) clients[viewer as ViewerName] = await signedIn(server.app, email);
    for (const viewer of VIEWERS) memberIds[viewer] = (await clients[viewer].request('GET', '/api/session')).body.user.id as string;
    // The admin reads email too (their address confirmed, as a member's is). Another admin reviews,
    // so the viewer admin is told of mentions as anyone else (a reviewer is not told of their own act).
    await server.db.query('UPDATE users SET email_verified_at = 1 WHERE email = $1', [ADMIN_EMAIL]);
    const reviewer = await signedIn(server.app, 'mx-reviewer@example.com');
    await server.db.query(`UPDATE users SET role = 'admin' WHERE email = 'mx-reviewer@example.com'`);
    reviewerId = (await reviewer.request('GET', '/api/session')).body.user.id as string;

    await admin({ type: 'createGroup', groupId: groupA, name: 'Matrix A' });
    await admin({ type: 'createGroup', groupId: groupB, name: 'Matrix B' });
    for (const viewer of ['author', 'memberA', 'removed'] as const)
      await admin({ type: 'addGroupMember', groupId: groupA, memberId: memberIds[viewer] });
    await admin({ type: 'addGroupMember', groupId: groupB, memberId: memberIds.memberB });
    const see: Record<Exclude<SpaceName, 'public'>, string[]> = { privateA: [groupA], privateAB: [groupA, groupB], archivedA: [groupA] };
    for (const [space, groups] of Object.entries(see)) {
      const name = `Matrix ${space}`;
      await admin({ type: 'createCategory', categoryId: categories[space as SpaceName], name, position: 6, see: groups, post: null });
    }

    // One post a space, by the author, mentioning every other viewer; the one of A has a poll.
    const mentions = VIEWERS.filter((viewer) => viewer !== 'author')
      .map((viewer) => mentionMarkdown(viewer, memberIds[viewer]))
      .join(' ');
    for (const space of SPACES) {
      const poll = space === 'privateA' ? { poll: { question: 'Which?', options: ['One', 'Two'], multiple: false, closesAt: null } } : {};
      posts[space] = await clients.author.createPost(`${WORD[space]} plans for the panel`, {
        category: categories[space],
        content: `About ${WORD[space]}, for ${mentions}.`,
        ...poll,
      });
      await applied(reviewer, reviewOp(posts[space]));
      await clients.memberA.reply(posts[space], `A ${WORD[space]} reply.`);
      // A file the post carries (its bytes stored as an upload's are).
      await server.db.query(`INSERT INTO attachments (sha256, kind, mime, size, created_at) VALUES ($1, 'png', 'image/png', 4, 1)`, [
        FILE[space],
      ]);
      await sqlBlobStore.put(server.db, FILE[space], new Uint8Array([1, 2, 3, 4]));
      await server.db.query(`UPDATE posts SET attachments = $2::text::jsonb WHERE id = $1`, [
        posts[space],
        JSON.stringify([{ sha256: FILE[space], name: `${space}.png`, mime: 'image/png', size: 4 }]),
      ]);
    }
    await admin({ type: 'archiveCategory', categoryId: categories.archivedA, archived: true });
    cursorBeforeRemoval = (await clients.removed.pull()).body.cursor as number;
    await admin({ type: 'removeGroupMember', groupId: groupA, memberId: memberIds.removed });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a pull from the start carries each post, its reply and notifications about it only to who may see it', async () => {
    const pulls = {} as Record<ViewerName, Answer>;
    for (const viewer of VIEWERS) pulls[viewer] = await clients[viewer].pull();
    expect(
      await table(async (viewer, space) => {
        const body = pulls[viewer].body;
        const post = postIds(pulls[viewer]).includes(posts[space]);
        const reply = JSON.stringify(body.replies).includes(`A ${WORD[space]} reply.`);
        const told = (body.notifications as { postId: number }[]).some((note) => note.postId === posts[space]);
        // Whatever is not seen is not there at all; what is seen comes whole (a notification: the
        // author is told of the approval and the reply, every other viewer of the mention).
        return post && reply && told ? true : post || reply || told ? (`partly ${post} ${reply} ${told}` as never) : false;
      }),
    ).toEqual(SEES);
  });

  it('pages, a post by id and search list each post only to who may see it', async () => {
    const pages = {} as Record<ViewerName, number[]>;
    for (const viewer of VIEWERS) pages[viewer] = postIds(await get(clients[viewer], '/api/posts?limit=100'));
    expect(await table(async (viewer, space) => pages[viewer]!.includes(posts[space]))).toEqual(SEES);
    expect(
      await table(async (viewer, space) => {
        const status = (await get(clients[viewer], `/api/posts/${posts[space]}`)).status;
        expect([200, 404]).toContain(status);
        return status === 200;
      }),
    ).toEqual(SEES);
    expect(
      await table(async (viewer, space) => {
        const found = await get(clients[viewer], `/api/search?q=${WORD[space]}&category=All`);
        expect(found.status).toBe(200);
        return postIds(found).includes(posts[space]);
      }),
    ).toEqual(SEES);
  });

  it('a file downloads only for who may see its post (404 otherwise, as for no file)', async () => {
    expect(
      await table(async (viewer, space) => {
        const status = (await get(clients[viewer], `/api/attachments/${FILE[space]}`)).status;
        expect([200, 404]).toContain(status);
        return status === 200;
      }),
    ).toEqual(SEES);
  });

  it('a like and a poll vote are refused as not_found to who may not see the post', async () => {
    expect(
      await table(async (viewer, space) => {
        const result = (await clients[viewer].push(likeOp(posts[space]))).body.results[0];
        return !(result.status === 'refused' && result.code === 'not_found');
      }),
    ).toEqual(SEES);
    for (const viewer of VIEWERS) {
      const result = (await clients[viewer].push({ id: randomUUID(), type: 'vote', postId: posts.privateA, choices: [0] } as Op)).body
        .results[0];
      if (SEES[viewer].privateA) expect(result, viewer).toMatchObject({ status: 'applied' });
      else expect(result, viewer).toMatchObject({ status: 'refused', code: 'not_found' });
    }
    // The like counts the author's devices and every viewer see: the likes of who may see it only.
    const [row] = await server.db.query<{ likes: unknown }>('SELECT likes FROM posts WHERE id = $1', [posts.privateA]);
    expect(Number(row!.likes)).toBeLessThanOrEqual(VIEWERS.filter((viewer) => SEES[viewer].privateA).length);
  });

  it('an away email names a post only to who may see it (mentions included)', async () => {
    await awayRound(server.db, 'http://localhost', Date.now() + AWAY_MS + 1000);
    const mails = await server.db.query<{ to_email: string; post_ids: unknown; text_body: string }>(
      `SELECT to_email, post_ids, text_body FROM mail_outbox WHERE kind = 'away'`,
    );
    const emailOf = (viewer: ViewerName) => (viewer === 'admin' ? ADMIN_EMAIL : EMAILS[viewer]);
    expect(
      await table(async (viewer, space) => {
        const mine = mails.filter((mail) => mail.to_email === emailOf(viewer));
        const named = mine.some((mail) => (mail.post_ids as unknown[]).map(Number).includes(posts[space]));
        const titled = mine.some((mail) => mail.text_body.includes(WORD[space]));
        return named === titled ? named : (`named ${named}, titled ${titled}` as never);
      }),
    ).toEqual(SEES);
  });

  it('member pages and the mention list say the same to every viewer: public facts only, no group', async () => {
    const profiles = new Set<string>();
    const suggestions = new Set<string>();
    for (const viewer of VIEWERS) {
      const profile = await get(clients[viewer], `/api/members/${memberIds.author}`);
      expect(profile.status).toBe(200);
      expect(profile.body.approvedPosts).toBe(1);
      for (const space of SPACES.filter((one) => one !== 'public')) expect(JSON.stringify(profile.body)).not.toContain(WORD[space]);
      profiles.add(JSON.stringify(profile.body));
      const found = await get(clients[viewer], '/api/members?q=mx');
      expect(found.status).toBe(200);
      suggestions.add(JSON.stringify(found.body));
      // A group's name finds nobody: the list is of names, never of who is in which group.
      expect((await get(clients[viewer], '/api/members?q=matrix')).body.members).toEqual([]);
    }
    expect(profiles.size).toBe(1);
    expect(suggestions.size).toBe(1);
    expect(
      JSON.parse([...suggestions][0]!)
        .members.map((member: { id: string }) => member.id)
        .sort(),
    ).toEqual([...Object.keys(EMAILS).map((viewer) => memberIds[viewer as ViewerName]), reviewerId].sort());
  });

  it('taken out of the group, the next pull carries its categories gone and none of their posts, replies or notifications', async () => {
    const next = await clients.removed.pull(cursorBeforeRemoval);
    expect(next.status).toBe(200);
    const gone = (next.body.categories as { id: string; gone: boolean; name: string }[]).filter((category) => category.gone);
    expect(gone.map((category) => category.id).sort()).toEqual([categories.privateA, categories.privateAB, categories.archivedA].sort());
    expect(gone.every((category) => category.name === '')).toBe(true);
    expect((next.body.groups as { id: string; gone: boolean }[]).find((group) => group.id === groupA)).toMatchObject({ gone: true });
    const text = JSON.stringify(next.body);
    for (const space of ['privateA', 'privateAB', 'archivedA'] as const) {
      expect(text).not.toContain(WORD[space]);
      expect(postIds(next)).not.toContain(posts[space]);
    }
    // A reply written since in the category reaches them neither.
    await clients.memberA.reply(posts.privateA, 'A Quokka answer after the removal.');
    const after = await clients.removed.pull(next.body.cursor as number);
    expect(JSON.stringify(after.body)).not.toContain('Quokka');
    cursorBeforeRemoval = after.body.cursor as number;
  });

  it('put back in the group, the next pull brings its posts again with the notifications the member had about them', async () => {
    await admin({ type: 'addGroupMember', groupId: groupA, memberId: memberIds.removed });
    const back = await clients.removed.pull(cursorBeforeRemoval);
    expect(postIds(back)).toEqual(expect.arrayContaining([posts.privateA, posts.privateAB, posts.archivedA]));
    const told = (back.body.notifications as { postId: number }[]).map((note) => note.postId);
    expect(told).toEqual(expect.arrayContaining([posts.privateA, posts.privateAB, posts.archivedA]));
    await admin({ type: 'removeGroupMember', groupId: groupA, memberId: memberIds.removed });
  });

  it('a category opened to another group reaches its members in their next pull, with its replies', async () => {
    const before = (await clients.memberB.pull()).body.cursor as number;
    await admin({ type: 'editCategory', categoryId: categories.privateA, name: 'Matrix privateA', see: [groupA, groupB], post: null });
    const next = await clients.memberB.pull(before);
    expect(postIds(next)).toContain(posts.privateA);
    expect(JSON.stringify(next.body.replies)).toContain(`A ${WORD.privateA} reply.`);
    await admin({ type: 'editCategory', categoryId: categories.privateA, name: 'Matrix privateA', see: [groupA], post: null });
    const closed = await clients.memberB.pull(next.body.cursor as number);
    expect((closed.body.categories as { id: string; gone: boolean }[]).find((one) => one.id === categories.privateA)).toMatchObject({
      gone: true,
    });
    expect(JSON.stringify(closed.body)).not.toContain(WORD.privateA);
  });

  it('a post its author moves from a public category to a private one leaves the devices of who may not see it there', async () => {
    const moving = await clients.author.createPost('Moving notes', { category: 'Trends', content: 'Before the move.' });
    await applied(clients.admin, reviewOp(moving));
    const cursors = {} as Record<ViewerName, number>;
    for (const viewer of VIEWERS) {
      const before = await clients[viewer].pull();
      expect(postIds(before)).toContain(moving);
      cursors[viewer] = before.body.cursor as number;
    }
    const edit = { id: randomUUID(), type: 'editPost', postId: moving, base: 'approved' };
    await applied(clients.author, {
      ...edit,
      post: { title: 'Moving notes', content: 'After the move.', category: categories.privateA, tags: [] },
    } as Op);
    for (const viewer of VIEWERS) {
      const next = await clients[viewer].pull(cursors[viewer]);
      const removed = (next.body.removed as { id: number }[]).map((one) => one.id);
      if (SEES[viewer].privateA) {
        expect(postIds(next), viewer).toContain(moving);
        expect(removed, viewer).not.toContain(moving);
      } else {
        expect(postIds(next), viewer).not.toContain(moving);
        expect(removed, viewer).toContain(moving);
        expect(JSON.stringify(next.body), viewer).not.toContain('After the move.');
      }
    }
  });

  it('a post moved from one private space to another, then hidden, is dropped by who held it: nobody else is told its id', async () => {
    const moving = await clients.author.createPost('Narrowing notes', { category: categories.privateAB, content: 'Shared with B.' });
    await applied(clients.admin, reviewOp(moving));
    const pullAll = async () => {
      const cursors = {} as Record<ViewerName, number>;
      for (const viewer of VIEWERS) cursors[viewer] = (await clients[viewer].pull()).body.cursor as number;
      return cursors;
    };
    const removedSince = async (viewer: ViewerName, cursor: number) =>
      ((await clients[viewer].pull(cursor)).body.removed as { id: number }[]).map((one) => one.id).includes(moving);
    const told = async (cursors: Record<ViewerName, number>) => {
      const answers = {} as Record<ViewerName, boolean>;
      for (const viewer of VIEWERS) answers[viewer] = await removedSince(viewer, cursors[viewer]);
      return answers;
    };
    // Moved from A and B's space to A's: only B's member held it and may not see it now.
    const beforeMove = await pullAll();
    const edit = { id: randomUUID(), type: 'editPost', postId: moving, base: 'approved' };
    await applied(clients.author, {
      ...edit,
      post: { title: 'Narrowing notes', content: 'A only.', category: categories.privateA, tags: [] },
    } as Op);
    expect(await told(beforeMove)).toEqual({ admin: false, author: false, memberA: false, memberB: true, noGroup: false, removed: false });
    // A pull from the start: the same (a new device of theirs held nothing).
    expect(await removedSince('noGroup', 0)).toBe(false);
    expect(await removedSince('memberB', 0)).toBe(true);
    // A post moved before the categories it left were kept (migration 34): everyone who may not see it, as before.
    await server.db.query('UPDATE posts SET moved_from = NULL WHERE id = $1', [moving]);
    expect(await removedSince('noGroup', 0)).toBe(true);
    await server.db.query('UPDATE posts SET moved_from = ARRAY[$2]::text[] WHERE id = $1', [moving, categories.privateAB]);
    // Hidden by an admin: A's member held it (and B's is told again: a device of theirs offline across
    // the move and the hide drops it then); its author and the admins still see it.
    const beforeHide = await pullAll();
    await admin({ type: 'hidePost', postId: moving, reason: 'Off topic' });
    expect(await told(beforeHide)).toEqual({ admin: false, author: false, memberA: true, memberB: true, noGroup: false, removed: false });
    expect(await removedSince('noGroup', 0)).toBe(false);
    // Deleted, it is dropped by every device that held it, offline across all three too.
    await applied(clients.author, { id: randomUUID(), type: 'deletePost', postId: moving } as Op);
    expect(await told(beforeMove)).toEqual({ admin: true, author: true, memberA: true, memberB: true, noGroup: false, removed: false });
    expect(await removedSince('noGroup', 0)).toBe(false);
  });

  it('a post moved while pending was on nobody’s device but its author’s: moved into a private space, nobody else is told its id', async () => {
    const pending = await clients.author.createPost('Pending move', { category: 'Trends', content: 'Not reviewed yet.' });
    const edit = { id: randomUUID(), type: 'editPost', postId: pending, base: 'pending' };
    await applied(clients.author, {
      ...edit,
      post: { title: 'Pending move', content: 'Now private.', category: categories.privateA, tags: [] },
    } as Op);
    await applied(clients.admin, reviewOp(pending));
    for (const viewer of ['noGroup', 'memberB'] as const) {
      const pulled = await clients[viewer].pull();
      expect(
        (pulled.body.removed as { id: number }[]).map((one) => one.id),
        viewer,
      ).not.toContain(pending);
      expect(postIds(pulled), viewer).not.toContain(pending);
    }
    expect(postIds(await clients.memberA.pull())).toContain(pending);
  });

  it('"Download my data" leaves out what others wrote in a space the member may no longer see', async () => {
    const mine = JSON.stringify((await clients.removed.request('GET', '/api/account/export')).body);
    expect(mine).toContain(WORD.public);
    for (const space of ['privateA', 'privateAB', 'archivedA'] as const) expect(mine).not.toContain(WORD[space]);
    const insiders = JSON.stringify((await clients.memberA.request('GET', '/api/account/export')).body);
    for (const space of SPACES) expect(insiders).toContain(WORD[space]);
  });

  // Last: flags stay on the posts. Each viewer flags four posts, within a new member's five a day.
  it('a flag of a post, or of its reply, is refused as not_found to who may not see the post (as for no post)', async () => {
    const flagOp = (postId: number, replyId: string | null = null) =>
      ({ id: randomUUID(), type: 'flag', postId, replyId, reason: 'spam', text: '' }) as Op;
    expect(
      await table(async (viewer, space) => {
        const result = (await clients[viewer].push(flagOp(posts[space]))).body.results[0];
        return !(result.status === 'refused' && result.code === 'not_found');
      }),
    ).toEqual(SEES);
    // A reply of a post the member may not see: the same answer (not that the reply is on that post).
    const [reply] = await server.db.query<{ id: string }>('SELECT id FROM replies WHERE post_id = $1', [posts.privateA]);
    const answer = (await clients.noGroup.push(flagOp(posts.privateA, reply!.id))).body.results[0];
    expect(answer).toMatchObject({ status: 'refused', code: 'not_found' });
    const [row] = await server.db.query<{ count: unknown }>(
      'SELECT count(*) AS count FROM flags f JOIN users u ON u.id = f.user_id WHERE u.email = $1 AND f.post_id = ANY($2::bigint[])',
      [EMAILS.noGroup, [posts.privateA, posts.privateAB, posts.archivedA]],
    );
    const count = Number(row!.count);
    expect(count).toBe(0);
  });
});
