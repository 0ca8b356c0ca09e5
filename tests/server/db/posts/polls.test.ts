// Polls on the server (issue 42), on PGlite and PostgreSQL: a poll travels with its post, its counts
// read from the ballots (one per member, changeable), each member told only their own ballot; a
// vote is one change that every device pulls (and the live stream announces); a retried vote counts
// once; votes have their daily limit; hostile ballots and polls are refused with a sentence; a
// deleted post takes its ballots; "Download my data" lists the member's votes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../../../src/shared/polls';
import type { WirePost } from '../../../../src/shared/protocol';
import { Client, closePollOp, createOp, deletePostOp, POLL, reviewOp, voteOp, type Answer } from '../../support/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { DEFAULT_LIMITS } from '../../support/limits';
import { listen, testServer, type TestServer } from '../../support/app';
import { openEventStream } from '../../support/sse';

const resultOf = (answer: Answer) => answer.body.results[0];
const outcome = (answer: Answer) => (resultOf(answer).status === 'refused' ? resultOf(answer).code : resultOf(answer).status);

/** The poll of `postId` as `client`'s pull carries it from `after`. */
async function pulledPoll(client: Client, postId: number, after = 0): Promise<Poll | null | undefined> {
  const answer = await client.pull(after);
  expect(answer.status).toBe(200);
  return (answer.body.posts as WirePost[]).find((post) => post.id === postId)?.poll;
}

describe.each(BACKENDS)('polls on %s', (backend) => {
  let server: TestServer;
  let baseUrl: string;
  const author = () => clients.author!;
  const clients: Record<'author' | 'voter' | 'admin', Client | undefined> = { author: undefined, voter: undefined, admin: undefined };
  let pollId: number;

  beforeAll(async () => {
    server = await testServer(backend);
    baseUrl = await listen(server);
    clients.author = new Client(server.app);
    clients.voter = new Client(server.app);
    clients.admin = new Client(server.app);
    await clients.author.join('pollster@example.com');
    await clients.voter.join('voter@example.com');
    await clients.admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    pollId = await clients.author.createPost('Which panel?', POLL);
    expect(outcome(await clients.admin.push(reviewOp(pollId)))).toBe('applied');
  });
  afterAll(() => server.close());

  it('a new poll travels with its post: trimmed, open, no votes', async () => {
    const id = await author().createPost('Trimmed', {
      poll: { question: '  Best mode?  ', options: [' Web ', 'Phone'], multiple: true, closesAt: null },
    });
    expect(await pulledPoll(author(), id)).toEqual({
      question: 'Best mode?',
      options: ['Web', 'Phone'],
      multiple: true,
      closesAt: null,
      closedAt: null,
      counts: [0, 0],
      voters: 0,
      ballots: {},
    });
    // A post without a poll carries null.
    const plain = await author().createPost('No poll here');
    expect(await pulledPoll(author(), plain)).toBeNull();
  });

  it('a vote is one change: the answer, every member’s pull and the live stream carry the new counts; each reads only their own ballot', async () => {
    const voter = clients.voter!;
    const before = (await author().pull()).body.cursor as number;
    const stream = await openEventStream(baseUrl, author().cookie!);
    try {
      const answer = await voter.push(voteOp(pollId, [1]));
      expect(resultOf(answer).status).toBe('applied');
      expect(resultOf(answer).post.poll).toMatchObject({ counts: [0, 1, 0], voters: 1, ballots: { 'voter@example.com': [1] } });
      const seq = resultOf(answer).seq as number;
      expect(await stream.nextCursor((cursor) => cursor >= seq)).toBeGreaterThanOrEqual(seq);
    } finally {
      stream.close();
    }
    // The author pulls from where they were: the post comes again, with the counts and no one's ballot.
    expect(await pulledPoll(author(), pollId, before)).toMatchObject({ counts: [0, 1, 0], voters: 1, ballots: {} });
    // A changed vote moves the count; the voters stay one.
    expect(outcome(await voter.push(voteOp(pollId, [2])))).toBe('applied');
    expect(await pulledPoll(voter, pollId)).toMatchObject({ counts: [0, 0, 1], voters: 1, ballots: { 'voter@example.com': [2] } });
    expect(await pulledPoll(clients.admin!, pollId)).toMatchObject({ counts: [0, 0, 1], voters: 1, ballots: {} });
  });

  it('a retried vote (the same op id) counts once', async () => {
    const op = voteOp(pollId, [0]);
    expect(outcome(await clients.admin!.push(op))).toBe('applied');
    expect(outcome(await clients.admin!.push(op))).toBe('duplicate');
    const poll = await pulledPoll(clients.admin!, pollId);
    expect(poll).toMatchObject({ counts: [1, 0, 1], voters: 2, ballots: { [ADMIN_EMAIL]: [0] } });
  });

  it('hostile ballots and polls are refused with a sentence, and change nothing', async () => {
    const voter = clients.voter!;
    for (const choices of [[], [0, 1], [3], [-1], [0.5], ['0'], 'all', null, { 0: true }, Array.from({ length: 100_000 }, () => 0)]) {
      const answer = await voter.push(voteOp(pollId, choices));
      expect(answer.status).toBe(200);
      expect(resultOf(answer)).toMatchObject({ status: 'refused', code: 'invalid' });
      expect(resultOf(answer).reason).toMatch(/poll|option/i);
    }
    const bad = [
      { question: 'Q?', options: ['Only one'] },
      { question: '', options: ['A', 'B'] },
      { question: 'Q?'.repeat(200), options: ['A', 'B'] },
      { question: 'Q?', options: ['A', 'B'.repeat(201)] },
      { question: 'Q?', options: ['A', 'a'] },
      { question: 'Q?', options: Array.from({ length: 11 }, (_, index) => `Option ${index}`) },
      { question: 'Q\0?', options: ['A', 'B'] },
      { question: 'Q?', options: ['A', 'B'], closesAt: Date.now() - 1000 },
      { question: 'Q?', options: ['A', 'B'], closesAt: Date.now() + 400 * 86_400_000 },
      { question: 'Q?', options: ['A', 'B'], closesAt: 'tomorrow' },
      { question: 'Q?', options: 'A, B' },
      // Issue 59: a blank option is refused, not dropped; options compared once normalized; nothing hidden.
      { question: 'Q?', options: ['A', '', 'B'] },
      { question: 'Q?', options: ['Café', 'CAFE\u0301'] },
      { question: 'Q?', options: ['ＹＥＳ', 'yes'] },
      { question: 'Q?', options: ['A', 'report\u202Egnp.exe'] },
      { question: 'Which\u200B?', options: ['A', 'B'] },
      { question: 'Q?', options: ['A', 'B\r\nC'] },
    ];
    for (const poll of bad) {
      const answer = await voter.push(createOp('Bad poll', { poll: { multiple: false, closesAt: null, ...poll } }));
      expect(resultOf(answer), JSON.stringify(poll).slice(0, 80)).toMatchObject({ status: 'refused', code: 'invalid' });
    }
    // Five blank options and ten real ones: refused with a sentence, not stored with six.
    const padded = [
      ...Array.from({ length: 5 }, (_, index) => `Real ${index}`),
      '',
      ' ',
      '',
      '\u200B',
      '',
      ...['5', '6', '7', '8', '9'].map((n) => `Real ${n}`),
    ];
    const answer = await voter.push(
      createOp('Padded poll', { poll: { question: 'Q?', options: padded, multiple: false, closesAt: null } }),
    );
    expect(resultOf(answer)).toMatchObject({ status: 'refused', code: 'invalid', reason: 'A poll has at most 10 options.' });
    expect(await pulledPoll(voter, pollId)).toMatchObject({ counts: [1, 0, 1], voters: 2 });
  });

  it('a closed poll keeps its results and takes no vote; a post past its closing time neither', async () => {
    const id = await author().createPost('Closing', POLL);
    await clients.admin!.push(reviewOp(id));
    expect(outcome(await clients.voter!.push(voteOp(id, [0])))).toBe('applied');
    expect(outcome(await clients.voter!.push(closePollOp(id)))).toBe('not_your_post');
    expect(outcome(await author().push(closePollOp(id)))).toBe('applied');
    const poll = await pulledPoll(clients.voter!, id);
    expect(poll?.closedAt).toEqual(expect.any(Number));
    expect(poll).toMatchObject({ counts: [1, 0, 0], voters: 1 });
    expect(outcome(await clients.voter!.push(voteOp(id, [1])))).toBe('poll_closed');
    // A closing time that passed: stored as it was written, then reached.
    const soon = await author().createPost('Soon closed', { poll: { ...POLL.poll, closesAt: Date.now() + 60_000 } });
    await clients.admin!.push(reviewOp(soon));
    await server.db.query(`UPDATE posts SET poll = jsonb_set(poll, '{closesAt}', to_jsonb($2::bigint)) WHERE id = $1`, [
      soon,
      Date.now() - 1,
    ]);
    expect(outcome(await clients.voter!.push(voteOp(soon, [0])))).toBe('poll_closed');
  });

  it('a deleted post takes its ballots; “Download my data” lists the member’s votes', async () => {
    const id = await author().createPost('Deleted with its poll', POLL);
    await clients.admin!.push(reviewOp(id));
    await clients.voter!.push(voteOp(id, [2]));
    const data = (await clients.voter!.request('GET', '/api/account/export')).body;
    expect(data.pollVotes).toEqual(
      expect.arrayContaining([{ postId: id, question: 'Which panel?', answers: ['C'], at: expect.any(Number) }]),
    );
    expect(outcome(await author().push(deletePostOp(id)))).toBe('applied');
    expect(await server.db.query('SELECT 1 FROM poll_votes WHERE post_id = $1', [id])).toHaveLength(0);
  });
});

describe('the daily limit of votes (DEFAULT_LIMITS)', () => {
  it('stops a flood of votes with slow_down; nothing is lost (the device keeps the vote and sends it later)', async () => {
    const server = await testServer('pglite', { memberLimits: DEFAULT_LIMITS });
    try {
      const admin = new Client(server.app);
      await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
      const id = await admin.createPost('Flooded poll', POLL);
      await admin.push(reviewOp(id));
      const voter = new Client(server.app);
      await voter.join('flood@example.com');
      const allowed = DEFAULT_LIMITS.votes_per_day.firstDayCount;
      // One push (a flood of pushes meets its own limit first).
      const ops = Array.from({ length: allowed + 1 }, (_, index) => ({
        id: randomUUID(),
        type: 'vote' as const,
        postId: id,
        choices: [index % 3],
      }));
      const answer = await voter.push(...ops);
      const results = answer.body.results as { status: string; code?: string }[];
      expect(results.slice(0, allowed).every((result) => result.status === 'applied')).toBe(true);
      expect(results[allowed]).toMatchObject({ status: 'failed', code: 'slow_down' });
    } finally {
      await server.close();
    }
  });
});
