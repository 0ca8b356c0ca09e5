// Emails follow the levels (issue 62), on PGlite and PostgreSQL: "When I'm away" lists a conversation
// once however many replies it had ("3 new replies in …"); the daily digest leads with the posts the
// member watches (new replies) and the new posts in the categories and tags they watch, then their
// notifications and the most liked new posts, and leaves out every post they muted (by the post, its
// category or a tag), its most liked list too, and any it may not see (a private category).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '../../../src/shared/protocol';
import { AWAY_MS, awayRound, digestRound } from '../../../server/mail/notify';
import { likeOp, reviewOp, signedIn, type Client } from '../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../support/databases';
import { testServer, type TestServer } from '../support/app';

const ORIGIN = 'http://localhost';
const followOp = (kind: 'post' | 'category' | 'tag', target: string, level: 'watching' | 'normal' | 'muted'): Op =>
  ({ id: randomUUID(), type: 'follow', kind, target, level }) as Op;

describe.each(BACKENDS)('emails by the levels on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let writer: Client;
  let others: Client[];

  const applied = async (client: Client, op: Op) => expect((await client.push(op)).body?.results?.[0]).toMatchObject({ status: 'applied' });
  const bodyOf = async (email: string, kind: string) =>
    (
      await server.db.query<{ text_body: string }>('SELECT text_body FROM mail_outbox WHERE to_email = $1 AND kind = $2 ORDER BY id', [
        email,
        kind,
      ])
    ).map((row) => row.text_body);
  async function approved(title: string, extra: Record<string, unknown> = {}): Promise<number> {
    const id = await writer.createPost(title, extra);
    await applied(admin, reviewOp(id));
    return id;
  }

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    writer = await signedIn(server.app, 'follow-writer@example.com');
    others = [];
    for (const n of [1, 2, 3]) others.push(await signedIn(server.app, `follow-other${n}@example.com`));
  });
  afterAll(() => server?.close());

  it('an away email lists a conversation once, "3 new replies in …", to its author and to its watcher', async () => {
    const watcher = await signedIn(server.app, 'away-watcher@example.com');
    const id = await approved('Panel sizes for spring');
    await applied(watcher, followOp('post', String(id), 'watching'));
    for (const [n, other] of others.entries()) await other.reply(id, `Reply ${n + 1}.`);
    await awayRound(server.db, ORIGIN, Date.now() + AWAY_MS + 1000);
    for (const email of ['follow-writer@example.com', 'away-watcher@example.com']) {
      const [body] = await bodyOf(email, 'away');
      const replyLines = body!.split('\n').filter((line) => line.startsWith('- ') && line.includes('repl'));
      expect(replyLines, email).toEqual(['- 3 new replies in “Panel sizes for spring”']);
    }
  });

  it('the digest leads with what the member watches, then the rest, and leaves out what they muted', async () => {
    const reader = await signedIn(server.app, 'digest-reader@example.com');
    expect((await reader.request('PUT', '/api/account/email-pref', { emailPref: 'digest' })).body.emailPref).toBe('digest');
    const watchedPost = await approved('Watched by its own level', { category: 'Quantitative' });
    await applied(reader, followOp('post', String(watchedPost), 'watching'));
    await applied(reader, followOp('category', 'Trends', 'watching'));
    await applied(reader, followOp('category', 'Case Studies', 'muted'));
    await applied(reader, followOp('tag', 'noise', 'muted'));
    await approved('New in a watched category', { category: 'Trends' });
    const mutedByCategory = await approved('Liked in a muted category', { category: 'Case Studies' });
    const mutedByTag = await approved('Liked with a muted tag', { category: 'Qualitative', tags: ['Noise'] });
    const mutedPost = await approved('Liked but muted itself', { category: 'Qualitative' });
    const liked = await approved('Liked and not muted', { category: 'Qualitative' });
    await applied(reader, followOp('post', String(mutedPost), 'muted'));
    for (const id of [mutedByCategory, mutedByTag, mutedPost]) await applied(others[0]!, likeOp(id, 5));
    await applied(others[0]!, likeOp(liked, 1));
    await others[1]!.reply(watchedPost, 'A first reply.');
    await others[2]!.reply(watchedPost, 'A second reply.');
    await others[1]!.reply(mutedPost, 'Nobody tells the reader of this.');
    // A post the reader watches by its tag, in a private category they may not see: never in their digest.
    const group = randomUUID();
    const room = randomUUID();
    const writerId = String(
      (await server.db.query('SELECT member_id FROM users WHERE email = $1', ['follow-writer@example.com']))[0]!.member_id,
    );
    await applied(admin, { id: randomUUID(), type: 'createGroup', groupId: group, name: 'Inner circle' } as Op);
    await applied(admin, { id: randomUUID(), type: 'addGroupMember', groupId: group, memberId: writerId } as Op);
    await applied(admin, {
      id: randomUUID(),
      type: 'createCategory',
      categoryId: room,
      name: 'Inner room',
      position: 7,
      see: [group],
      post: null,
    } as Op);
    await applied(reader, followOp('tag', 'inner', 'watching'));
    const hidden = await approved('Inside the inner room', { category: room, tags: ['Inner'] });
    await admin.reply(hidden, 'Only the group reads this.');
    const noon = new Date();
    noon.setUTCHours(12, 0, 0, 0);
    await digestRound(server.db, ORIGIN, Math.max(noon.getTime(), Date.now()));
    const [body] = await bodyOf('digest-reader@example.com', 'digest');
    const at = (text: string) => body!.indexOf(text);
    expect(at('Posts you watch')).toBeGreaterThan(0);
    expect(at('Posts you watch')).toBeLessThan(at('- 2 new replies in “Watched by its own level”'));
    expect(at('- 2 new replies in “Watched by its own level”')).toBeLessThan(at('New in categories and tags you watch'));
    expect(at('New in categories and tags you watch')).toBeLessThan(at('- New in a watched category (Trends)'));
    expect(at('- New in a watched category (Trends)')).toBeLessThan(at('Most liked new posts'));
    expect(at('Most liked new posts')).toBeLessThan(at('- Liked and not muted (1 like)'));
    for (const left of ['Liked in a muted category', 'Liked with a muted tag', 'Liked but muted itself', 'Inside the inner room'])
      expect(body).not.toContain(left);
  });
});
