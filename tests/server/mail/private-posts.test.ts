// Emails about posts in a private category, on PGlite and PostgreSQL: an email naming such a post goes
// only to a recipient who may see it when it is SENT, not only when it was queued. A member taken out
// of the category's group between the two gets nothing (the email is withheld, never retried); one
// still in it gets theirs.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '../../../src/shared/protocol';
import { AWAY_MS, awayRound, digestRound } from '../../../server/mail/notify';
import { MailWorker, WITHHELD } from '../../../server/mail/outbox';
import type { MailTransport, OutgoingMail } from '../../../server/mail/transport';
import { reviewOp, signedIn, type Client } from '../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../support/databases';
import { testServer, type TestServer } from '../support/app';

const ORIGIN = 'http://localhost';

describe.each(BACKENDS)('emails about a private category on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let writer: Client;
  let insider: Client;
  const group = randomUUID();
  const room = randomUUID();
  let writersPost: number;
  let insidersPost: number;
  let openPost: number;
  const sent: OutgoingMail[] = [];
  const transport: MailTransport = {
    describe: 'a test',
    send: async (mail) => void sent.push(mail),
    close: () => undefined,
  };

  const memberId = async (email: string) =>
    String((await server.db.query<{ member_id: string }>('SELECT member_id FROM users WHERE email = $1', [email]))[0]!.member_id);
  const applied = async (client: Client, op: Op) => expect((await client.push(op)).body?.results?.[0]).toMatchObject({ status: 'applied' });
  const queued = (email: string, kind: string) =>
    server.db.query<{ post_ids: unknown; sent_at: unknown; failed_at: unknown; last_error: string | null }>(
      `SELECT post_ids, sent_at, failed_at, last_error FROM mail_outbox WHERE to_email = $1 AND kind = $2 ORDER BY id`,
      [email, kind],
    );

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    writer = await signedIn(server.app, 'mail-writer@example.com');
    insider = await signedIn(server.app, 'mail-insider@example.com');
    await applied(admin, { id: randomUUID(), type: 'createGroup', groupId: group, name: 'Mail team' } as Op);
    for (const email of ['mail-writer@example.com', 'mail-insider@example.com'])
      await applied(admin, { id: randomUUID(), type: 'addGroupMember', groupId: group, memberId: await memberId(email) } as Op);
    await applied(admin, {
      id: randomUUID(),
      type: 'createCategory',
      categoryId: room,
      name: 'Mail room',
      position: 6,
      see: [group],
      post: null,
    } as Op);
    writersPost = await writer.createPost('Renewal terms of the panel', { category: room });
    insidersPost = await insider.createPost('Panel budget for next year', { category: room });
    await applied(admin, reviewOp(writersPost));
    await applied(admin, reviewOp(insidersPost));
    // Each is told of a reply on their post in the private room.
    await insider.reply(writersPost, 'Looks fine to me.');
    await writer.reply(insidersPost, 'Counting on it.');
    // And the writer of a reply on their public post too.
    openPost = await writer.createPost('Open notes on panel sizes');
    await applied(admin, reviewOp(openPost));
    await insider.reply(openPost, 'Useful.');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an away email queued while the member could see the post is not sent once they are taken out of its group', async () => {
    expect(await awayRound(server.db, ORIGIN, Date.now() + AWAY_MS + 1000)).toBe(2);
    const [toWriter] = await queued('mail-writer@example.com', 'away');
    expect((toWriter!.post_ids as unknown[]).map(Number).sort()).toEqual([writersPost, openPost].sort());
    // Taken out between queueing and sending.
    await applied(admin, {
      id: randomUUID(),
      type: 'removeGroupMember',
      groupId: group,
      memberId: await memberId('mail-writer@example.com'),
    } as Op);
    const worker = new MailWorker(server.db, { transport, from: 'no-reply@example.com', pollMs: 60_000 });
    await worker.wake();
    await worker.stop();
    expect(sent.filter((mail) => mail.to === 'mail-writer@example.com' && mail.text.includes('Renewal terms'))).toEqual([]);
    expect(await queued('mail-writer@example.com', 'away')).toMatchObject([{ sent_at: null, last_error: WITHHELD }]);
    expect((await queued('mail-writer@example.com', 'away'))[0]!.failed_at).not.toBeNull();
    // The member still in the group gets theirs, naming the post.
    const toInsider = sent.filter((mail) => mail.to === 'mail-insider@example.com' && mail.text.includes('Panel budget'));
    expect(toInsider).toHaveLength(1);
    // What the withheld email named that the writer may still see is left for the next round.
    const notes = await server.db.query<{ post_id: unknown; emailed_at: unknown }>(
      `SELECT n.post_id, n.emailed_at FROM notifications n JOIN users u ON u.id = n.user_id
       WHERE u.email = 'mail-writer@example.com' AND n.kind = 'replied'`,
    );
    expect(notes.find((note) => Number(note.post_id) === openPost)?.emailed_at).toBeNull();
    expect(notes.find((note) => Number(note.post_id) === writersPost)?.emailed_at).not.toBeNull();
  });

  it('a member out of the group is told of nothing in it: the next away email names the public post only, no digest the private one', async () => {
    await insider.reply(writersPost, 'A second look.');
    const later = Date.now() + 3 * AWAY_MS;
    expect(await awayRound(server.db, ORIGIN, later)).toBe(1);
    const [, next] = await queued('mail-writer@example.com', 'away');
    expect((next!.post_ids as unknown[]).map(Number)).toEqual([openPost]);
    const [text] = await server.db.query<{ text_body: string }>(
      `SELECT text_body FROM mail_outbox WHERE to_email = 'mail-writer@example.com' AND kind = 'away' ORDER BY id DESC LIMIT 1`,
    );
    expect(text!.text_body).toContain('Open notes on panel sizes');
    expect(text!.text_body).not.toContain('Renewal terms');
    await server.db.query(`UPDATE users SET email_pref = 'digest' WHERE email = 'mail-writer@example.com'`);
    const morning = new Date(later);
    morning.setUTCHours(23, 0, 0, 0);
    await digestRound(server.db, ORIGIN, morning.getTime());
    const digests = await server.db.query<{ text_body: string }>(
      `SELECT text_body FROM mail_outbox WHERE to_email = 'mail-writer@example.com' AND kind = 'digest'`,
    );
    for (const digest of digests) expect(digest.text_body).not.toContain('Renewal terms');
  });
});
