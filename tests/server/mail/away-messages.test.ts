// "When I'm away" for messages (issue 61), on PGlite and PostgreSQL: a message still unread 10
// minutes after it was written is emailed to its recipient (the conversation's subject, how many,
// from whom; never its text), once; one read on a device, one in a conversation the member left,
// and anything to a third member never are.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '../../../src/shared/protocol';
import { awayMessagesRound, AWAY_MS } from '../../../server/mail/notify';
import type { Client } from '../support/client';
import { joinCast, openMessages } from '../support/cast';
import { BACKENDS } from '../support/databases';
import { testServer, type TestServer } from '../support/app';

const start = (conversationId: string, recipients: string[], body: string): Op =>
  ({ id: randomUUID(), type: 'startConversation', conversationId, recipients, subject: 'Quota file', body }) as Op;
const send = (conversationId: string, body: string): Op => ({ id: randomUUID(), type: 'sendMessage', conversationId, body }) as Op;
const read = (conversationId: string): Op => ({ id: randomUUID(), type: 'readMessages', conversationId }) as Op;
const leave = (conversationId: string): Op => ({ id: randomUUID(), type: 'leaveConversation', conversationId }) as Op;

describe.each(BACKENDS)('messages emailed when away, on %s', (backend) => {
  let server: TestServer;
  let alice: Client;
  let bob: Client;
  const ids: Record<string, string> = {};

  /** The away emails queued to `email`: subject and text. */
  const mailsTo = async (email: string) =>
    server.db.query<{ subject: string; text_body: string }>(
      `SELECT subject, text_body FROM mail_outbox WHERE to_email = $1 AND kind = 'away' ORDER BY id`,
      [email],
    );

  beforeAll(async () => {
    server = await testServer(backend);
    const cast = await joinCast(server.app);
    ({ alice, bob } = cast);
    Object.assign(ids, cast.ids);
    await openMessages(cast, 'Quotas');
  });
  afterAll(() => server.close());

  it('an unread message is emailed to its recipient after 10 minutes, once, without its text; never to a third member', async () => {
    const conversation = randomUUID();
    expect((await alice.push(start(conversation, [ids.bob!], 'The secret quota figures.'))).body.results[0].status).toBe('applied');
    expect((await alice.push(send(conversation, 'And the cells.'))).body.results[0].status).toBe('applied');
    expect(await awayMessagesRound(server.db, 'http://localhost')).toBe(0); // not 10 minutes yet
    const later = Date.now() + AWAY_MS + 1000;
    expect(await awayMessagesRound(server.db, 'http://localhost', later)).toBe(1);
    expect(await awayMessagesRound(server.db, 'http://localhost', later + 2 * AWAY_MS)).toBe(0);
    const [mail] = await mailsTo('bob@example.com');
    expect(mail!.subject).toBe('2 new messages on Insight Exchange');
    expect(mail!.text_body).toContain('Quota file (2 new messages from Alice Ames)');
    expect(mail!.text_body).toContain(`/messages/${conversation}`);
    expect(mail!.text_body).not.toContain('secret quota');
    expect(await mailsTo('alice@example.com')).toEqual([]);
    expect(await mailsTo('carol@example.com')).toEqual([]);
  });

  it('a message read on a device, or in a conversation the member left, is never emailed', async () => {
    const readOne = randomUUID();
    const leftOne = randomUUID();
    await bob.push(start(readOne, [ids.alice!], 'Read me.'));
    await bob.push(start(leftOne, [ids.alice!], 'Then leave.'));
    await alice.push(read(readOne));
    await alice.push(leave(leftOne));
    const later = Date.now() + AWAY_MS + 1000;
    expect(await awayMessagesRound(server.db, 'http://localhost', later)).toBe(0);
    expect(await mailsTo('alice@example.com')).toEqual([]);
  });
});
