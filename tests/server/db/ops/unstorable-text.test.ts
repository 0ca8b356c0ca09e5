// Text no database can store (a NUL, a lone surrogate) is refused as `invalid` with the shared
// rule's sentence, on both engines; a batch answers every operation even when one fails
// unexpectedly; the protocol version is served by /api/health and checked on every request.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../../../src/shared/errors';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../../../src/shared/protocol';
import type { Database } from '../../../../server/db/storage/adapter';
import { Client, createOp, likeOp, reviewOp, signedIn, TEST_PASSWORD } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS, freshDatabase } from '../../support/databases';
import { testServer, type TestServer } from '../../support/app';

const NUL = 'a\u0000b';
const LONE = 'x\uD83Dy';

describe.each(BACKENDS)('unstorable text on %s', (backend) => {
  let server: TestServer;
  let admin: Client;
  let member: Client;
  let approved: number;

  beforeAll(async () => {
    server = await testServer(backend);
    admin = await signedIn(server.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    member = await signedIn(server.app, 'member@example.com');
    approved = await admin.createPost('Approved');
    await admin.push(reviewOp(approved));
  });
  afterAll(() => server.close());

  it.each([
    ['title', { title: NUL }, /^Title holds a character that cannot be stored/],
    ['content', { content: LONE }, /^Content holds a character that cannot be stored/],
    ['a tag', { tags: ['fine', NUL] }, /^A tag holds a character that cannot be stored/],
    ['a tag (lone low surrogate)', { tags: ['\uDE00'] }, /^A tag holds a character/],
  ])('a create with a NUL or lone surrogate in %s is refused invalid with the rule’s sentence', async (_field, fields, sentence) => {
    const answer = await member.push(createOp('Title', fields));
    expect(answer.status).toBe(200);
    expect(answer.body.results[0]).toMatchObject({ status: 'refused', code: 'invalid' });
    expect(answer.body.results[0].reason).toMatch(sentence);
  });

  it('a batch [like, create with a NUL] answers both: the like applied, the create refused', async () => {
    const like = likeOp(approved);
    const answer = await member.push(like, createOp(NUL));
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result: { status: string }) => result.status)).toEqual(['applied', 'refused']);
    // Resending the same batch settles: the like is a duplicate, nothing is counted twice.
    const again = await member.push(like, createOp(NUL));
    expect(again.body.results.map((result: { status: string }) => result.status)).toEqual(['duplicate', 'refused']);
  });

  it('a name with a NUL or a lone surrogate is refused 400 invalid with a sentence, no account made', async () => {
    for (const name of [NUL, LONE]) {
      const email = `named-${randomUUID()}@example.com`;
      const answer = await new Client(server.app).signIn(email, TEST_PASSWORD, 'signup', name);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid');
      expect(answer.body.error.message).toMatch(/^Name holds a character that cannot be stored/);
      expect(
        (await new Client(server.app).signIn(email, 'another-long-passphrase', 'signup', `Named Later ${name === NUL ? 'One' : 'Two'}`))
          .status,
      ).toBe(200); // the email was never taken
    }
  });
});

describe('a batch answers every operation, even one that fails unexpectedly', () => {
  let server: TestServer;
  let failOn: string | undefined;

  beforeAll(async () => {
    const db = await freshDatabase('pglite');
    // A database whose statements fail (as a bug would) while they carry the marked title.
    const faulty: Database = Object.create(db, {
      transaction: {
        value: <T>(fn: Parameters<Database['transaction']>[0]) =>
          db.transaction(
            (tx) =>
              fn({
                query: (text, params) => {
                  if (failOn && params?.includes(failOn)) return Promise.reject(Object.assign(new Error('boom'), { code: 'XX000' }));
                  return tx.query(text, params);
                },
              }) as Promise<T>,
          ),
      },
    });
    server = await testServer('pglite', {}, faulty);
  });
  afterAll(() => server.close());

  it('answers failed (server_error) for the one that fails and applies the others', async () => {
    const member = new Client(server.app);
    await member.join('batch@example.com');
    failOn = 'Explodes';
    const answer = await member.push(createOp('Before'), createOp('Explodes'), createOp('After'));
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result: { status: string }) => result.status)).toEqual(['applied', 'failed', 'applied']);
    expect(answer.body.results[1]).toMatchObject({ code: 'server_error', reason: ERRORS.server_error.message });
    failOn = undefined;
  });
});

describe('the protocol version', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer('pglite');
  });
  afterAll(() => server.close());

  it('is served by /api/health', async () => {
    const answer = await new Client(server.app).request('GET', '/api/health');
    expect(answer.body).toMatchObject({ ok: true, protocol: PROTOCOL_VERSION });
  });

  it('another version is answered 409 protocol_mismatch with the reload sentence; this one and none are served', async () => {
    const client = new Client(server.app);
    const other = await client.request(
      'POST',
      '/api/session',
      { mode: 'signup', email: 'v@example.com', password: TEST_PASSWORD, name: 'Vee' },
      {
        [PROTOCOL_HEADER]: String(PROTOCOL_VERSION + 1),
      },
    );
    expect(other.status).toBe(409);
    expect(other.body.error).toEqual({ code: 'protocol_mismatch', message: ERRORS.protocol_mismatch.message });
    const same = await client.request(
      'POST',
      '/api/session',
      { mode: 'signup', email: 'v@example.com', password: TEST_PASSWORD, name: 'Vee' },
      {
        [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
      },
    );
    expect(same.status).toBe(200);
    expect((await client.confirmSignUp('v@example.com'))!.status).toBe(200);
    expect((await client.request('GET', '/api/changes')).status).toBe(200);
  });
});
