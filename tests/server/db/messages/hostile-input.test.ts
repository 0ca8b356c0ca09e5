// Messages against a hostile member (issue 61, item 7), on PGlite and PostgreSQL: recipient lists too
// long (21, 10,000 ids, one id 10,000 times), repeated or too big for a push are refused in words and
// fast; To offers members by name only (never an email nor a group) and a recipient must be one it
// could offer; invisible and direction-changing characters in a subject or a body are refused as in a title
// or a reply (an emoji's joiner stays); a member guessing ids or cursors reads nobody's conversation,
// and their pages count under pages_per_minute as every pull does.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op, WireConversation, WireMessage } from '../../../../src/shared/protocol';
import { type Client, type Answer } from '../../support/client';
import { joinCast, openMessages } from '../../support/cast';
import { BACKENDS } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';
import { RELAXED_LIMITS } from '../../support/limits';
import { createUser } from '../../../../server/db/members/accounts';

const resultOf = (answer: Answer) => answer.body.results[0];
const start = (recipients: unknown, subject = 'Quota file', body = 'The quota file is ready.', conversationId = randomUUID()): Op =>
  ({ id: randomUUID(), type: 'startConversation', conversationId, recipients, subject, body }) as Op;
const send = (conversationId: string, body: string): Op => ({ id: randomUUID(), type: 'sendMessage', conversationId, body }) as Op;
/** Public member ids of the right shape that nobody has. */
const madeUpIds = (count: number) => Array.from({ length: count }, (_, index) => index.toString(16).padStart(16, 'e'));
/** The reply a member would read for a hidden character (text-checks.ts, hiddenText). */
const hidden = (field: string, code: string) =>
  `${field} holds an invisible or direction-changing character (${code}, often from a paste). Remove it and try again.`;

describe.each(BACKENDS)('messages against hostile input on %s', (backend) => {
  let server: TestServer;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let admin: Client;
  let aliceId: string;
  let bobId: string;
  const conversation = randomUUID();

  beforeAll(async () => {
    // Pages counted over a day, so none come back while the test runs.
    server = await testServer(backend, {
      memberLimits: { ...RELAXED_LIMITS, pages_per_minute: { count: 40, seconds: 86_400, firstDayCount: 40, firstDaySeconds: 86_400 } },
    });
    const cast = await joinCast(server.app);
    ({ admin, alice, bob, carol } = cast);
    ({ alice: aliceId, bob: bobId } = cast.ids);
    await openMessages(cast, 'Quota sampling', [bob, carol]);
    expect(resultOf(await alice.push(start([bobId], 'Quota file', 'The quota file is ready.', conversation))).status).toBe('applied');
  });
  afterAll(() => server.close());

  it('To offers members by name only (no email, no group), and recipients are only whom it could offer', async () => {
    const groupId = randomUUID();
    expect(resultOf(await admin.push({ id: randomUUID(), type: 'createGroup', groupId, name: 'Panel vendors' } as Op)).status).toBe(
      'applied',
    );
    expect(resultOf(await admin.push({ id: randomUUID(), type: 'addGroupMember', groupId, memberId: bobId } as Op)).status).toBe('applied');
    const suggested = async (q: string) => (await carol.request('GET', `/api/members?${new URLSearchParams({ q })}`)).body;
    // Bob, in a group, answers as Carol, in none, does: his id and name, nothing else.
    expect(await suggested('bob')).toEqual({ members: [{ id: bobId, name: 'Bob Brook' }] });
    expect(Object.keys((await suggested('carol')).members[0])).toEqual(['id', 'name']);
    for (const q of ['bob@example.com', 'example.com', 'Panel vendors', 'Panel']) expect(await suggested(q)).toEqual({ members: [] });
    // Accounts the search never offers are nobody as recipients too.
    const unconfirmed = await createUser(server.db, { email: 'uma@example.com', name: 'Uma Unconfirmed', role: 'user', passwordHash: 'x' });
    const suspended = await createUser(server.db, { email: 'sid@example.com', name: 'Sid Suspended', role: 'user', passwordHash: 'x' });
    await server.db.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [unconfirmed!.id]);
    await server.db.query('UPDATE users SET email_verified_at = 1, suspended_until = $2 WHERE id = $1', [
      suspended!.id,
      Date.now() + 86_400_000,
    ]);
    for (const user of [unconfirmed!, suspended!]) {
      const [row] = await server.db.query('SELECT member_id FROM users WHERE id = $1', [user.id]);
      expect(resultOf(await alice.push(start([String(row!.member_id)])))).toMatchObject({ status: 'refused', code: 'recipient_not_found' });
    }
    expect(await suggested('u')).toEqual({ members: [] });
    expect(await suggested('sid')).toEqual({ members: [] });
  });

  it('refuse huge and repeated recipient lists in words, fast', async () => {
    const cases: [unknown[], string][] = [
      [madeUpIds(21), 'A message can go to at most 20 members (it has 21).'],
      [madeUpIds(10_000), 'A message can go to at most 20 members (it has 10000).'],
      [Array.from({ length: 10_000 }, () => bobId), 'A message can go to at most 20 members (it has 10000).'],
      [[bobId, ...madeUpIds(18), bobId], 'Each member can be chosen once.'],
      [[bobId, { id: bobId }], 'Choose recipients among the members the To field suggests.'],
    ];
    for (const [recipients, reason] of cases) {
      const began = performance.now();
      const answer = await alice.push(start(recipients));
      const took = performance.now() - began;
      expect(resultOf(answer)).toMatchObject({ status: 'refused', code: 'invalid', reason });
      // Refused by its length before any id is looked up: well within a second even on a busy machine.
      expect(took).toBeLessThan(1000);
    }
    // A list past what a push may carry at all: a JSON error, no stack.
    const flood = await alice.request('POST', '/api/ops', { ops: [start(madeUpIds(100_000))] });
    expect(flood.status).toBe(413);
    expect(flood.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(JSON.stringify(flood.body)).not.toMatch(/\bat \w+ \(|node_modules/);
    // Nothing of it was made.
    expect((await carol.pull(0, 1000)).body.conversations).toEqual([]);
  });

  it('refuse invisible and direction-changing characters in a subject or a body as in a title or a reply', async () => {
    const refusals: [Op, string][] = [
      [start([bobId], 'Invoice\u202Efdp.exe'), hidden('Subject', 'U+202E')],
      [start([bobId], 'Quota\u200Bfile'), hidden('Subject', 'U+200B')],
      [start([bobId], 'Quota\u2067file\u2069'), hidden('Subject', 'U+2067')],
      [start([bobId], 'Quota\nfile'), 'Subject cannot hold a line break. Write it on one line.'],
      [start([bobId], 'Quota file', 'Pay [@Bob Brook\u200B](/members/0123456789abcdef) now.'), hidden('Message', 'U+200B')],
      [send(conversation, 'Open \u202Egnp.exe please'), hidden('Message', 'U+202E')],
      [send(conversation, 'A bell\u0007 rings'), hidden('Message', 'U+0007')],
    ];
    for (const [op, reason] of refusals)
      expect(resultOf(await alice.push(op))).toMatchObject({ status: 'refused', code: 'invalid', reason });
    // What the characters are part of stays: an emoji's joiner, a Persian word's non-joiner.
    expect(resultOf(await bob.push(send(conversation, 'Done 👩‍💻, می‌خواهم'))).status).toBe('applied');
    expect(resultOf(await bob.push(start([aliceId], 'Team 👩‍💻'))).status).toBe('applied');
    const bodies = ((await alice.pull(0, 1000)).body.messages as WireMessage[]).map((message) => message.body);
    expect(bodies).toContain('Done 👩‍💻, می‌خواهم');
    expect(bodies.join()).not.toMatch(/\u202E|\u200B|\u2067/);
  });

  it('a member guessing ids or cursors reads nobody’s conversation, and their pages are counted', async () => {
    // Every operation naming the conversation or its first message: not found, as if there were none.
    const first = ((await bob.pull(0, 1000)).body.messages as WireMessage[])[0]!.id;
    const guesses: Op[] = [
      send(conversation, 'Let me in.'),
      { id: randomUUID(), type: 'readMessages', conversationId: conversation } as Op,
      { id: randomUUID(), type: 'leaveConversation', conversationId: conversation } as Op,
      { id: randomUUID(), type: 'flagMessage', messageId: first, reason: 'spam' } as Op,
    ];
    for (const op of guesses) expect(resultOf(await carol.push(op))).toMatchObject({ status: 'refused', code: 'conversation_not_found' });
    // Pages from every cursor, one row each: never a conversation or message of others', until
    // pages_per_minute answers slow_down.
    let cursor = 0;
    let pages = 0;
    for (;;) {
      const page = await carol.pull(cursor, 1);
      if (page.status === 429) {
        expect(page.body.error.code).toBe('slow_down');
        break;
      }
      expect(page.status).toBe(200);
      const body = page.body as { conversations: WireConversation[]; messages: WireMessage[]; cursor: number };
      expect(body.conversations).toEqual([]);
      expect(body.messages).toEqual([]);
      pages += 1;
      cursor += 1;
    }
    expect(pages).toBeLessThan(40);
    // Bob's own pages, one row at a time, hold his conversations and their messages, each page at most one row of each.
    const seen = new Set<string>();
    cursor = 0;
    for (let page = 0; page < 30; page++) {
      const answer = await bob.pull(cursor, 1);
      const body = answer.body as { conversations: WireConversation[]; messages: WireMessage[]; cursor: number; more?: boolean };
      expect(body.conversations.length).toBeLessThanOrEqual(1);
      expect(body.messages.length).toBeLessThanOrEqual(1);
      for (const one of body.conversations) seen.add(one.subject);
      if (body.cursor === cursor) break;
      cursor = body.cursor;
    }
    expect([...seen].sort()).toEqual(['Quota file', 'Team 👩‍💻']);
  });
});
