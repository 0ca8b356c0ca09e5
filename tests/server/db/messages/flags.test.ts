// A flagged message (issue 61), on PGlite and PostgreSQL: a participant flags another's message once;
// the admins see the flag (who, why, when; never what was said) and open its conversation only through
// it, each opening written to the staff log; their pulls still hold no conversation; members cannot.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '../../../../src/shared/protocol';
import { type Client, type Answer } from '../../support/client';
import { joinCast, openMessages } from '../../support/cast';
import { BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

const resultOf = (answer: Answer) => answer.body.results[0];
const flagMessage = (messageId: string, reason = 'inappropriate', text?: string): Op =>
  ({ id: randomUUID(), type: 'flagMessage', messageId, reason, ...(text ? { text } : {}) }) as Op;

describe.each(BACKENDS)('flagged messages on %s', (backend) => {
  let server: TestServer;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let admin: Client;
  const conversation = randomUUID();
  const firstMessage = randomUUID();

  beforeAll(async () => {
    server = await testServer(backend);
    const cast = await joinCast(server.app);
    ({ admin, alice, bob, carol } = cast);
    const bobId = cast.ids.bob;
    await openMessages(cast, 'Quotas');
    const started = await alice.push({
      id: firstMessage,
      type: 'startConversation',
      conversationId: conversation,
      recipients: [bobId],
      subject: 'A private offer',
      body: 'Buy my panel list, cheap.',
    } as Op);
    expect(resultOf(started).status).toBe('applied');
  });
  afterAll(() => server.close());

  it('a participant flags another’s message once; the author, a third member and the admin cannot', async () => {
    expect(resultOf(await bob.push(flagMessage(firstMessage, 'spam', 'Selling lists')))).toMatchObject({ status: 'applied' });
    expect(resultOf(await bob.push(flagMessage(firstMessage)))).toMatchObject({ status: 'refused', code: 'already_flagged' });
    expect(resultOf(await alice.push(flagMessage(firstMessage)))).toMatchObject({ status: 'refused', code: 'cannot_flag_own' });
    expect(resultOf(await carol.push(flagMessage(firstMessage)))).toMatchObject({ status: 'refused', code: 'conversation_not_found' });
    expect(resultOf(await admin.push(flagMessage(firstMessage)))).toMatchObject({ status: 'refused', code: 'conversation_not_found' });
  });

  it('the admins see the flag without what was said, open its conversation through it, and the staff log says so', async () => {
    const list = await admin.request('GET', '/api/admin/message-flags');
    expect(list.status).toBe(200);
    expect(list.body.flags).toEqual([
      {
        id: expect.any(String),
        messageId: firstMessage,
        flagger: 'Bob Brook',
        reason: 'spam',
        text: 'Selling lists',
        createdAt: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain('panel list');
    // Browsing it otherwise: nothing.
    const pulled = await admin.pull();
    expect(pulled.body.conversations).toEqual([]);
    expect(pulled.body.messages).toEqual([]);
    const opened = await admin.request('GET', `/api/admin/message-flags/${list.body.flags[0].id}`);
    expect(opened.status).toBe(200);
    expect(opened.body.conversation).toMatchObject({ id: conversation, subject: 'A private offer' });
    expect(opened.body.conversation.participants.map((one: { name: string }) => one.name)).toEqual(['Alice Ames', 'Bob Brook']);
    expect(opened.body.messages.map((one: { body: string }) => one.body)).toEqual(['Buy my panel list, cheap.']);
    expect(opened.body.flag.messageId).toBe(firstMessage);
    const log = await admin.request('GET', '/api/admin/log');
    expect(log.body.entries[0]).toMatchObject({
      action: 'openFlaggedConversation',
      member: { name: 'Alice Ames' },
      title: 'A private offer',
      reason: 'spam',
      detail: { conversationId: conversation },
    });
  });

  it('the opened conversation ends at the flag: what is said after it is not the admins’ to read', async () => {
    const later: Op = { id: randomUUID(), type: 'sendMessage', conversationId: conversation, body: 'Said after the flag.' } as Op;
    expect(resultOf(await alice.push(later)).status).toBe('applied');
    // Said in the same millisecond as the flag, by the clock of the instance that took it: still after it.
    await server.db.query('UPDATE messages SET created_at = (SELECT created_at FROM message_flags WHERE message_id = $1) WHERE id = $2', [
      firstMessage,
      later.id,
    ]);
    const [flag] = (await admin.request('GET', '/api/admin/message-flags')).body.flags as { id: string }[];
    const bodies = async () => {
      const opened = await admin.request('GET', `/api/admin/message-flags/${flag!.id}`);
      expect(opened.status).toBe(200);
      return opened.body.messages.map((one: { body: string }) => one.body);
    };
    expect(await bodies()).toEqual(['Buy my panel list, cheap.']);
    // A flag from before migration 35 (no change number) ends at its time: what came in a later millisecond is not read.
    await server.db.query('UPDATE message_flags SET upto_seq = NULL WHERE message_id = $1', [firstMessage]);
    await server.db.query('UPDATE messages SET created_at = created_at + 1 WHERE id = $1', [later.id]);
    expect(await bodies()).toEqual(['Buy my panel list, cheap.']);
  });

  it('an admin dismisses a message’s flags: the list loses them, the staff log says so; a member cannot', async () => {
    const dismiss = (messageId: string): Op => ({ id: randomUUID(), type: 'dismissMessageFlags', messageId }) as Op;
    for (const member of [alice, bob, carol])
      expect(resultOf(await member.push(dismiss(firstMessage)))).toMatchObject({ status: 'refused', code: 'admins_only' });
    expect((await admin.request('GET', '/api/admin/message-flags')).body.flags).toHaveLength(1);
    const [flag] = (await admin.request('GET', '/api/admin/message-flags')).body.flags as { id: string }[];
    expect(resultOf(await admin.push(dismiss(firstMessage))).status).toBe('applied');
    expect((await admin.request('GET', '/api/admin/message-flags')).body.flags).toEqual([]);
    // A dismissed flag opens nothing any more (its id stays in the staff log): as for no flag.
    expect((await admin.request('GET', `/api/admin/message-flags/${flag!.id}`)).status).toBe(404);
    const log = await admin.request('GET', '/api/admin/log');
    expect(log.body.entries[0]).toMatchObject({ action: 'dismissMessageFlags', member: { name: 'Alice Ames' }, title: 'A private offer' });
    // The message stays: Bob still reads it, and may not flag it again.
    expect((await bob.pull()).body.messages.map((one: { body: string }) => one.body)).toEqual([
      'Buy my panel list, cheap.',
      'Said after the flag.',
    ]);
    expect(resultOf(await admin.push(dismiss(randomUUID())))).toMatchObject({ status: 'refused', code: 'conversation_not_found' });
  });

  it('members cannot list or open flags; an unknown flag is not found', async () => {
    for (const member of [alice, bob, carol]) {
      expect((await member.request('GET', '/api/admin/message-flags')).status).toBe(403);
      expect((await member.request('GET', `/api/admin/message-flags/${randomUUID()}`)).status).toBe(403);
    }
    expect((await admin.request('GET', `/api/admin/message-flags/${randomUUID()}`)).status).toBe(404);
    expect((await admin.request('GET', '/api/admin/message-flags/not-a-uuid')).status).toBe(404);
  });
});
