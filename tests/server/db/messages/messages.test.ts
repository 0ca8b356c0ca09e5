// Messages on the server (issue 61), on PGlite and PostgreSQL: a conversation reaches its participants'
// pulls and nobody else's (a third member, the admin, an older device); a member who leaves gets that
// they left (their devices drop it) and nothing said afterwards; search and the mention list never
// hold a message; messages open once one of the member's posts or replies is approved, and take
// messages_per_day (stricter on the first day).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op, WireConversation, WireMessage } from '../../../../src/shared/protocol';
import { MESSAGES_CLOSED } from '../../../../src/shared/messages';
import { type Client, replyOp, reviewOp, type Answer } from '../../support/client';
import { joinCast } from '../../support/cast';
import { BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';
import { RELAXED_LIMITS } from '../../support/limits';

const resultOf = (answer: Answer) => answer.body.results[0];
const start = (conversationId: string, recipients: unknown, body = 'The quota file is ready.', subject = 'Quota file'): Op =>
  ({ id: randomUUID(), type: 'startConversation', conversationId, recipients, subject, body }) as Op;
const send = (conversationId: string, body: string): Op => ({ id: randomUUID(), type: 'sendMessage', conversationId, body }) as Op;
const leave = (conversationId: string): Op => ({ id: randomUUID(), type: 'leaveConversation', conversationId }) as Op;
const read = (conversationId: string): Op => ({ id: randomUUID(), type: 'readMessages', conversationId }) as Op;

/** Everything a pull from the start gives `client`, and its cursor. */
async function pulled(client: Client, after = 0, protocol?: number) {
  const answer = await client.pull(after, 1000, protocol);
  expect(answer.status).toBe(200);
  return answer.body as { conversations?: WireConversation[]; messages?: WireMessage[]; cursor: number };
}

describe.each(BACKENDS)('messages on %s', (backend) => {
  let server: TestServer;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let admin: Client;
  const ids: Record<string, string> = {};
  const conversation = randomUUID();

  beforeAll(async () => {
    server = await testServer(backend, {
      memberLimits: { ...RELAXED_LIMITS, messages_per_day: { count: 100, seconds: 86_400, firstDayCount: 4, firstDaySeconds: 86_400 } },
    });
    const cast = await joinCast(server.app);
    ({ admin, alice, bob, carol } = cast);
    Object.assign(ids, cast.ids);
  });
  afterAll(() => server.close());

  it('stay closed until one of the member’s posts or replies is approved', async () => {
    const refused = resultOf(await alice.push(start(randomUUID(), [ids.bob])));
    expect(refused).toMatchObject({ status: 'refused', code: 'messages_closed', reason: MESSAGES_CLOSED });
    const postId = await alice.createPost('Quota sampling');
    expect(resultOf(await admin.push(reviewOp(postId))).status).toBe('applied');
    // Bob opens his by a reply on an approved post.
    expect(resultOf(await bob.push(replyOp(postId, 'Agreed.'))).status).toBe('applied');
  });

  it('reach the participants’ pulls, and never a third member’s, the admin’s or an older device’s', async () => {
    expect(resultOf(await alice.push(start(conversation, [ids.bob]))).status).toBe('applied');
    const bobs = await pulled(bob);
    expect(bobs.conversations!.map((one) => [one.id, one.subject, one.participants.map((p) => p.name), one.lastReadAt])).toEqual([
      [conversation, 'Quota file', ['Alice Ames', 'Bob Brook'], null],
    ]);
    expect(bobs.messages!.map((message) => [message.author, message.authorId, message.body])).toEqual([
      ['Alice Ames', ids.alice, 'The quota file is ready.'],
    ]);
    expect(JSON.stringify(bobs.conversations)).not.toContain('@example.com');
    expect(resultOf(await bob.push(send(conversation, 'Thanks, **got it**.'))).status).toBe('applied');
    expect((await pulled(alice)).messages!.map((message) => message.body)).toEqual(['The quota file is ready.', 'Thanks, **got it**.']);
    for (const outsider of [carol, admin]) {
      const page = await pulled(outsider);
      expect(page.conversations).toEqual([]);
      expect(page.messages).toEqual([]);
      expect(JSON.stringify(page)).not.toContain('quota file is ready');
    }
    const older = await pulled(bob, 0, 6);
    expect(older.conversations).toBeUndefined();
    expect(older.messages).toBeUndefined();
  });

  it('refuse anyone outside the conversation, by any of its operations', async () => {
    for (const op of [send(conversation, 'Let me in.'), read(conversation), leave(conversation)]) {
      expect(resultOf(await carol.push(op))).toMatchObject({ status: 'refused', code: 'conversation_not_found' });
      expect(resultOf(await admin.push({ ...op, id: randomUUID() }))).toMatchObject({ status: 'refused', code: 'conversation_not_found' });
    }
    // Starting one under its id joins nobody to it.
    expect(resultOf(await carol.push(start(conversation, [ids.alice])))).toMatchObject({ status: 'refused' });
    expect((await pulled(carol)).messages).toEqual([]);
  });

  it('refuse hostile recipient lists in words', async () => {
    const many = Array.from({ length: 21 }, (_, index) => index.toString(16).padStart(16, 'a'));
    expect(resultOf(await alice.push(start(randomUUID(), many)))).toMatchObject({
      status: 'refused',
      code: 'invalid',
      reason: expect.stringContaining('at most 20'),
    });
    expect(resultOf(await alice.push(start(randomUUID(), ['carol@example.com'])))).toMatchObject({ status: 'refused', code: 'invalid' });
    expect(resultOf(await alice.push(start(randomUUID(), [ids.alice])))).toMatchObject({ status: 'refused', code: 'invalid' });
    expect(resultOf(await alice.push(start(randomUUID(), [ids.bob, ids.bob])))).toMatchObject({ status: 'refused', code: 'invalid' });
    expect(resultOf(await alice.push(start(randomUUID(), ['0123456789abcdef'])))).toMatchObject({
      status: 'refused',
      code: 'recipient_not_found',
    });
  });

  it('are never found by search nor the mention list', async () => {
    for (const client of [alice, bob, carol]) {
      const found = await client.request('GET', '/api/search?q=quota%20file%20ready');
      expect(found.status).toBe(200);
      expect(JSON.stringify(found.body)).not.toContain('quota file is ready');
      const members = await client.request('GET', '/api/members?q=Ali');
      expect(JSON.stringify(members.body)).not.toMatch(/quota|@example\.com/i);
    }
  });

  it('a member who leaves gets that they left, and nothing said afterwards', async () => {
    const before = (await pulled(bob)).cursor;
    expect(resultOf(await bob.push(leave(conversation))).status).toBe('applied');
    const left = await pulled(bob, before);
    expect(left.conversations!.map((one) => [one.id, one.left])).toEqual([[conversation, true]]);
    expect(left.messages).toEqual([]);
    const after = left.cursor;
    // Alice's message comes in a later millisecond than his leaving (its time is the server's clock).
    const [{ left_at: leftAt }] = (await server.db.query(
      `SELECT m.left_at FROM conversation_members m JOIN users u ON u.id = m.user_id WHERE m.conversation_id = $1 AND u.email = $2`,
      [conversation, 'bob@example.com'],
    )) as [{ left_at: unknown }];
    while (Date.now() <= Number(leftAt)) await new Promise((resolve) => setImmediate(resolve));
    expect(resultOf(await alice.push(send(conversation, 'Are you still there?'))).status).toBe('applied');
    const later = await pulled(bob, after);
    expect(later.conversations).toEqual([]);
    expect(later.messages).toEqual([]);
    // From the start too: only that he left, none of its messages, nor when it last changed after
    // that or who is in it now (Alice's later message moved its updatedAt on).
    const fromStart = await pulled(bob);
    expect(fromStart.messages).toEqual([]);
    expect(fromStart.conversations!.map((one) => one.left)).toEqual([true]);
    const alicesRow = (await pulled(alice)).conversations!.find((one) => one.id === conversation)!;
    expect(fromStart.conversations![0]!.updatedAt).toBeLessThan(alicesRow.updatedAt);
    expect(fromStart.conversations![0]!.participants).toEqual([]);
    // Alice sees him as having left.
    const alices = await pulled(alice);
    expect(alices.conversations![0]!.participants.map((one) => [one.name, one.left])).toEqual([
      ['Alice Ames', false],
      ['Bob Brook', true],
    ]);
    expect(resultOf(await bob.push(send(conversation, 'Back again?')))).toMatchObject({
      status: 'refused',
      code: 'conversation_not_found',
    });
  });

  it('take messages_per_day, stricter on the first day', async () => {
    // Alice sent 2 of her first day's 4 (the start, one message; refusals gave theirs back): two more, then slow_down.
    expect(resultOf(await alice.push(send(conversation, 'One more.'))).status).toBe('applied');
    expect(resultOf(await alice.push(send(conversation, 'Last one.'))).status).toBe('applied');
    expect(resultOf(await alice.push(send(conversation, 'And another.')))).toMatchObject({ status: 'failed', code: 'slow_down' });
  });
});
