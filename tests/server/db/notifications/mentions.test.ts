// Mentions on the server (issue 42), on PGlite and PostgreSQL: a member named in a post is told once
// the post is on the forum (its approval; an edit of an approved post tells only whom it adds), in a
// reply at once; an unknown or closed account is skipped; at most 10 a post. GET /api/members?q=
// offers members by a name (or a word of it) that starts with what was typed: no emails, wildcards
// taken literally, at most 8, signed-in members only, refusals in words.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newReply } from '../../../../src/shared/post-rules';
import { createUser } from '../../../../server/db/members/accounts';
import { INSERT_REPLY, insertReplyParams } from '../../../../server/db/replies/reply-rows';
import { MAX_MENTIONS } from '../../../../src/shared/mentions';
import type { WireNotification } from '../../../../src/shared/protocol';
import { BAD_MEMBER_QUERY_MESSAGE, MENTION_SUGGESTIONS } from '../../../../server/routes/api/members';
import { Client, createOp, deletePostOp, editPostOp, hidePostOp, replyOp, reviewOp, type Answer } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

const resultOf = (answer: Answer) => answer.body.results[0];

/** The "mentioned" notifications `client` holds, as "<actor>: <post title>". */
async function mentionsOf(client: Client): Promise<string[]> {
  const notifications = (await client.pull()).body.notifications as WireNotification[];
  return notifications.filter((note) => note.kind === 'mentioned').map((note) => `${note.actor}: ${note.postTitle}`);
}

describe.each(BACKENDS)('mentions on %s', (backend) => {
  let server: TestServer;
  let writer: Client;
  let named: Client;
  let admin: Client;
  let namedId: string;
  const mention = () => `[@Nora Named](/members/${namedId})`;

  beforeAll(async () => {
    server = await testServer(backend);
    writer = new Client(server.app);
    named = new Client(server.app);
    admin = new Client(server.app);
    await writer.join('wren@example.com', undefined, 'Wren Writer');
    await named.join('nora@example.com', undefined, 'Nora Named');
    await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    namedId = (await named.request('GET', '/api/session')).body.user.id;
  });
  afterAll(() => server.close());

  it('a post’s mention is told once the post is approved, by its author’s name; a reply’s at once', async () => {
    const id = await writer.createPost('Ask Nora', { content: `What do you think, ${mention()}?` });
    expect(await mentionsOf(named)).toEqual([]);
    expect(resultOf(await admin.push(reviewOp(id))).status).toBe('applied');
    expect(await mentionsOf(named)).toEqual(['Wren Writer: Ask Nora']);
    // The admin who approved it is not named; the author is not told of their own post.
    expect(await mentionsOf(writer)).toEqual([]);
    await writer.reply(
      id,
      `Also ${mention()} and me [@Wren Writer](/members/${(await writer.request('GET', '/api/session')).body.user.id}).`,
    );
    expect(await mentionsOf(named)).toEqual(['Wren Writer: Ask Nora', 'Wren Writer: Ask Nora']);
    expect(await mentionsOf(writer)).toEqual([]);
  });

  it('an edit of an approved post tells only the members it adds', async () => {
    const id = await writer.createPost('Edited mention', { content: 'No one yet.' });
    await admin.push(reviewOp(id));
    const before = (await mentionsOf(named)).length;
    expect(resultOf(await writer.push(editPostOp(id, 'approved', { title: 'Edited mention', content: `Now ${mention()}.` }))).status).toBe(
      'applied',
    );
    expect((await mentionsOf(named)).length).toBe(before + 1);
    expect(
      resultOf(await writer.push(editPostOp(id, 'approved', { title: 'Edited mention', content: `Still ${mention()}!` }))).status,
    ).toBe('applied');
    expect((await mentionsOf(named)).length).toBe(before + 1);
    // Issue 59: the mention taken out, then put back, twice: told once, whatever the edits.
    for (const content of ['Nobody.', `Back to ${mention()}.`, 'Nobody again.', `And ${mention()} again.`]) {
      expect(resultOf(await writer.push(editPostOp(id, 'approved', { title: 'Edited mention', content }))).status).toBe('applied');
    }
    expect((await mentionsOf(named)).length).toBe(before + 1);
  });

  it('an edit that renames a post and adds a mention names the post by its new title, never the one it replaced', async () => {
    const id = await writer.createPost('Codename Bluebird acquisition', { content: 'Nobody named.' });
    await admin.push(reviewOp(id));
    const edit = editPostOp(id, 'approved', { title: 'Quarterly panel notes', content: `For ${mention()}.` });
    expect(resultOf(await writer.push(edit)).status).toBe('applied');
    const lines = await mentionsOf(named);
    expect(lines).toContain('Wren Writer: Quarterly panel notes');
    expect(lines.filter((line) => line.includes('Bluebird'))).toEqual([]);
  });

  it('a notification names its post as it is now, and only while the member may see it: not once hidden or deleted, on a new device nor in the data download', async () => {
    const exported = async () =>
      ((await named.request('GET', '/api/account/export')).body.notifications as { post_id: number | string; post_title: string }[])
        .map((note) => ({ post_id: Number(note.post_id), post_title: note.post_title }))
        .filter((note) => [renamed, hidden, deleted].includes(note.post_id));
    const renamed = await writer.createPost('Codename Osprey shortlist', { content: `For ${mention()}.` });
    const hidden = await writer.createPost('Doxxing thread 12 Elm St', { content: `For ${mention()}.` });
    const deleted = await writer.createPost('Confidential layoffs list', { content: `For ${mention()}.` });
    for (const id of [renamed, hidden, deleted]) expect(resultOf(await admin.push(reviewOp(id))).status).toBe('applied');
    const { cursor } = (await named.pull()).body as { cursor: number };
    expect(await mentionsOf(named)).toEqual(
      expect.arrayContaining([
        'Wren Writer: Codename Osprey shortlist',
        'Wren Writer: Doxxing thread 12 Elm St',
        'Wren Writer: Confidential layoffs list',
      ]),
    );

    // Renamed: a device that held it hears it again, with the title as it is now; a new device only knows that one.
    const edit = editPostOp(renamed, 'approved', { title: 'Panel notes', content: `For ${mention()}.` });
    expect(resultOf(await writer.push(edit)).status).toBe('applied');
    const since = (await named.pull(cursor)).body.notifications as WireNotification[];
    expect(since.filter((note) => note.postId === renamed).map((note) => note.postTitle)).toEqual(['Panel notes']);
    // Hidden by an admin, deleted by its author: no longer the member's to read about.
    expect(resultOf(await admin.push(hidePostOp(hidden, 'Personal details'))).status).toBe('applied');
    expect(resultOf(await writer.push(deletePostOp(deleted))).status).toBe('applied');
    const fresh = JSON.stringify((await named.pull()).body);
    for (const gone of ['Osprey', '12 Elm St', 'layoffs']) expect(fresh).not.toContain(gone);
    expect(await mentionsOf(named)).toContain('Wren Writer: Panel notes');
    expect(await exported()).toEqual([
      { post_id: renamed, post_title: 'Panel notes' },
      { post_id: hidden, post_title: '' },
      { post_id: deleted, post_title: '' },
    ]);
    // Put back (its author edits it, back to review, and an admin approves it): its notification comes
    // again to a device that dropped it with the tombstone (its title unchanged: no rewrite sends it).
    const { cursor: afterHide } = (await named.pull()).body as { cursor: number };
    const reworded = editPostOp(hidden, 'rejected', { title: 'Doxxing thread 12 Elm St', content: `For ${mention()}, reworded.` });
    expect(resultOf(await writer.push(reworded)).status).toBe('applied');
    expect(resultOf(await admin.push(reviewOp(hidden))).status).toBe('applied');
    const again = (await named.pull(afterHide)).body.notifications as WireNotification[];
    expect(again.filter((note) => note.postId === hidden).map((note) => `${note.kind}: ${note.postTitle}`)).toEqual([
      'mentioned: Doxxing thread 12 Elm St',
    ]);
    // The author still hears of their own post's hiding, by its title.
    const own = (await writer.pull()).body.notifications as WireNotification[];
    expect(own.filter((note) => note.postId === hidden).map((note) => `${note.kind}: ${note.postTitle}`)).toContain(
      'postHidden: Doxxing thread 12 Elm St',
    );
  });

  it('a post mentioned at its approval, the mention edited out and back in: told once (issue 59)', async () => {
    const id = await writer.createPost('Told once', { content: `Hello ${mention()}.` });
    await admin.push(reviewOp(id));
    const told = async () => (await mentionsOf(named)).filter((line) => line.endsWith(': Told once')).length;
    expect(await told()).toBe(1);
    for (const content of ['Hello.', `Hello ${mention()}.`, 'Hello.', `Hello again ${mention()}.`]) {
      expect(resultOf(await writer.push(editPostOp(id, 'approved', { title: 'Told once', content }))).status).toBe('applied');
    }
    expect(await told()).toBe(1);
  });

  it('an unknown id is skipped; more than 10 members is refused with a sentence', async () => {
    const id = await writer.createPost('Ghosts', { content: '[@Ghost](/members/0123456789abcdef) was here.' });
    expect(resultOf(await admin.push(reviewOp(id))).status).toBe('applied');
    const many = Array.from({ length: MAX_MENTIONS + 1 }, (_, index) => `[@M${index}](/members/${index.toString(16).padStart(16, 'a')})`);
    const refused = resultOf(await writer.push(replyOp(id, many.join(' '))));
    expect(refused).toMatchObject({ status: 'refused', code: 'invalid' });
    expect(refused.reason).toBe(`Mention at most ${MAX_MENTIONS} members in one post or reply (this one mentions ${MAX_MENTIONS + 1}).`);
    expect(resultOf(await writer.push(createOp('Many', { content: many.join(' ') })))).toMatchObject({
      status: 'refused',
      code: 'invalid',
    });
  });

  it('GET /api/members?q= offers members with something on the forum by a name or a word of it: ids and names only, at most 8', async () => {
    // Nora has a reply on the forum; a member who wrote nothing and never confirmed their address is not offered.
    const forum = await writer.createPost('Where Nora replied');
    await admin.push(reviewOp(forum));
    await named.reply(forum, 'Hello.');
    await createUser(server.db, {
      email: 'nobody.yet@example.com',
      name: 'Norbert Quiet',
      role: 'user',
      passwordHash: 'not-for-signing-in',
    });
    const byName = await writer.request('GET', '/api/members?q=nor');
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual({ members: [{ id: namedId, name: 'Nora Named' }] });
    const byWord = await writer.request('GET', '/api/members?q=NAM');
    expect(byWord.body.members.map((member: { name: string }) => member.name)).toEqual(['Nora Named']);
    expect(JSON.stringify(byWord.body)).not.toContain('@');
    // Ten more members with a reply each, written straight into the database (no sign-up's hashing).
    for (let index = 0; index < MENTION_SUGGESTIONS + 2; index += 1) {
      const email = `many${index}@example.com`;
      await createUser(server.db, { email, name: `Many ${index}`, role: 'user', passwordHash: 'not-for-signing-in' });
      const reply = newReply(randomUUID(), forum, { email, name: `Many ${index}`, role: 'user' }, `Reply ${index}.`, null, index);
      await server.db.query(INSERT_REPLY, insertReplyParams(reply, 1));
    }
    const manyAnswer = await writer.request('GET', '/api/members?q=many');
    expect(manyAnswer.body.members, JSON.stringify(manyAnswer.body)).toHaveLength(MENTION_SUGGESTIONS);
    // Wildcards are letters like any other.
    expect((await writer.request('GET', '/api/members?q=%25')).body.members).toEqual([]);
    expect((await writer.request('GET', '/api/members?q=_')).body.members).toEqual([]);
    for (const bad of ['', '%20', 'x'.repeat(101), '%00']) {
      const answer = await writer.request('GET', `/api/members?q=${bad}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ code: 'invalid', message: BAD_MEMBER_QUERY_MESSAGE });
    }
    expect((await writer.request('GET', '/api/members')).status).toBe(400);
    expect((await new Client(server.app).request('GET', '/api/members?q=nor')).status).toBe(401);
  });

  it('GET /api/members?q= offers a confirmed member who has not written yet (a new colleague), never a closed, suspended or unconfirmed one; their page answers', async () => {
    const om = await createUser(server.db, {
      email: 'om.new@example.com',
      name: 'Om Prakash',
      role: 'user',
      passwordHash: 'not-for-signing-in',
    });
    await server.db.query('UPDATE users SET email_verified_at = $2 WHERE id = $1', [om!.id, Date.now()]);
    for (const [email, name, state] of [
      ['om.unconfirmed@example.com', 'Omar Unconfirmed', 'email_verified_at = NULL'],
      ['om.closed@example.com', 'Oma Closed', `email_verified_at = 1, closed_at = ${Date.now()}`],
      ['om.suspended@example.com', 'Omi Suspended', `email_verified_at = 1, suspended_until = ${Date.now() + 86_400_000}`],
    ] as const) {
      const user = await createUser(server.db, { email, name, role: 'user', passwordHash: 'not-for-signing-in' });
      await server.db.query(`UPDATE users SET ${state} WHERE id = $1`, [user!.id]);
    }
    const answer = await writer.request('GET', '/api/members?q=Om');
    expect(answer.status).toBe(200);
    expect(answer.body.members.map((member: { name: string }) => member.name)).toEqual(['Om Prakash']);
    expect(JSON.stringify(answer.body)).not.toContain('@');
    const [row] = await server.db.query('SELECT member_id FROM users WHERE id = $1', [om!.id]);
    expect(answer.body.members[0].id).toBe(String(row!.member_id));
    // The mention's link opens their page (names are public), with nothing on it yet.
    expect(await writer.request('GET', `/api/members/${String(row!.member_id)}`)).toMatchObject({
      status: 200,
      body: { name: 'Om Prakash', approvedPosts: 0, replyCount: 0 },
    });
  });
});
