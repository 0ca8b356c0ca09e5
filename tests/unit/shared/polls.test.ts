// The poll rules shared by the device and the server (src/shared/polls.ts), and a vote this device
// made that the server has not confirmed yet, replayed over the server's last word (db/ops/replay.ts):
// the member sees their own vote at once, counted once, whatever the server says meanwhile.
import { describe, expect, it } from 'vitest';
import { localView } from '../../../src/db/ops/replay';
import type { OutboxRow } from '../../../src/db/storage/schema';
import {
  ballotOf,
  isPollClosed,
  newPoll,
  percentages,
  pollCsv,
  validateBallot,
  validatePoll,
  withBallot,
  type Poll,
} from '../../../src/shared/polls';
import type { Post } from '../../../src/shared/post-rules';

const DAY = 86_400_000;
const open = (multiple = false): Poll => newPoll({ question: 'Which panel?', options: ['A', 'B', 'C'], multiple, closesAt: null });

describe('polls', () => {
  it('a ballot counts once per member; a changed ballot moves the count, the voters stay', () => {
    let poll = withBallot(open(), 'ann@example.com', [0]);
    poll = withBallot(poll, 'bob@example.com', [0]);
    expect(poll).toMatchObject({ counts: [2, 0, 0], voters: 2 });
    poll = withBallot(poll, 'ann@example.com', [2]);
    expect(poll).toMatchObject({ counts: [1, 0, 1], voters: 2 });
    expect(ballotOf(poll, 'ann@example.com')).toEqual([2]);
    expect(ballotOf(poll, 'cy@example.com')).toBeNull();
    expect(percentages(poll)).toEqual([50, 0, 50]);
    expect(percentages(open())).toEqual([0, 0, 0]);
  });

  it('several answers: each option’s share of the voters', () => {
    const poll = withBallot(withBallot(open(true), 'ann@example.com', [0, 1]), 'bob@example.com', [0]);
    expect(poll).toMatchObject({ counts: [2, 1, 0], voters: 2 });
    expect(percentages(poll)).toEqual([100, 50, 0]);
  });

  it('closed when closed by hand or once its closing time comes', () => {
    expect(isPollClosed({ closedAt: null, closesAt: null }, 5)).toBe(false);
    expect(isPollClosed({ closedAt: 1, closesAt: null }, 5)).toBe(true);
    expect(isPollClosed({ closedAt: null, closesAt: 5 }, 4)).toBe(false);
    expect(isPollClosed({ closedAt: null, closesAt: 5 }, 5)).toBe(true);
  });

  it('what an author may write, and what a voter may choose, each refusal in words', () => {
    const now = 1_000_000_000_000;
    const poll = { question: 'Q?', options: ['A', 'B'], multiple: false, closesAt: null };
    expect(validatePoll(poll, now)).toBeNull();
    expect(validatePoll({ ...poll, closesAt: now + DAY }, now)).toBeNull();
    expect(validatePoll({ ...poll, question: ' ' }, now)?.title).toBe('Poll needs a question');
    expect(validatePoll({ ...poll, options: ['A', ' '] }, now)?.title).toBe('Poll needs options');
    expect(validatePoll({ ...poll, options: ['A', ' a '] }, now)?.title).toBe('Options repeat');
    expect(validatePoll({ ...poll, closesAt: now }, now)?.title).toBe('Closing date passed');
    expect(validatePoll({ ...poll, closesAt: now + 367 * DAY }, now)?.title).toBe('Closing date too far');
    expect(validatePoll({ ...poll, closesAt: Number.NaN })?.title).toBe('Closing date not valid');
    expect(validateBallot(open(), [1])).toBeNull();
    expect(validateBallot(open(), [0, 1])?.title).toBe('One answer only');
    expect(validateBallot(open(true), [0, 1])).toBeNull();
    for (const bad of [[], [3], [-1], [1.5], [1, 1]]) expect(validateBallot(open(true), bad)?.title).toBe('Choose an option');
  });

  it('a malformed poll is refused with a sentence, never trimmed; options compared once normalized (issue 59, item 5)', () => {
    const poll = { question: 'Q?', options: ['A', 'B'], multiple: false, closesAt: null };
    const real = Array.from({ length: 10 }, (_, index) => `Option ${index}`);
    expect(validatePoll({ ...poll, options: [...real.slice(0, 5), '', ' ', '', ' ', '', ...real.slice(5)] })?.title).toBe(
      'Too many options',
    );
    expect(validatePoll({ ...poll, options: ['A', '', 'B'] })).toEqual({
      code: 'invalid',
      title: 'Option is empty',
      message: 'Option 2 is empty: write it or remove it.',
    });
    expect(validatePoll({ ...poll, options: ['A', '\u200B', 'B'] })?.title).toBe('Option is empty');
    expect(validatePoll({ ...poll, options: ['Café', 'Cafe\u0301'] })?.title).toBe('Options repeat');
    expect(validatePoll({ ...poll, options: ['ＡＢＣ', 'abc'] })?.title).toBe('Options repeat');
    expect(validatePoll({ ...poll, options: ['Yes  please', 'yes please'] })?.title).toBe('Options repeat');
    expect(validatePoll({ ...poll, options: ['A', 'B\u202Ekcab'] })?.title).toBe('Option 2 cannot be saved');
    expect(validatePoll({ ...poll, options: ['A', 'B\nC'] })?.title).toBe('Option 2 is one line');
    expect(validatePoll({ ...poll, question: 'Which\u200B one?' })?.title).toBe('The question cannot be saved');
    expect(validatePoll({ ...poll, options: ['👍 Yes', '❤\uFE0F Love it'] })).toBeNull();
  });

  it('the results as CSV: quotes doubled, a formula defused, the voters last', () => {
    const poll = withBallot(
      newPoll({ question: 'Q?', options: ['Say "yes"', '=HYPERLINK("x")'], multiple: false, closesAt: null }),
      'ann@example.com',
      [0],
    );
    expect(pollCsv(poll)).toBe('"Option","Votes","Percent"\r\n"Say ""yes""",1,100\r\n"\'=HYPERLINK(""x"")",0,0\r\n"Voters",1,\r\n');
  });

  it('a vote not confirmed yet shows on the server’s counts, once, and is gone once the server holds it', async () => {
    const server = withBallot(open(), 'bob@example.com', [1]);
    const row = {
      id: 7,
      title: 'Which panel?',
      content: 'Vote.',
      category: 'Trends',
      author: 'Bob',
      authorEmail: 'bob@example.com',
      authorRole: 'user',
      likes: 0,
      comments: 0,
      views: 0,
      date: 'Just now',
      isTopContributor: false,
      tags: [],
      status: 'approved',
      poll: server,
    } satisfies Post & { poll: Poll };
    const vote: OutboxRow = {
      seq: 1,
      op: { id: '0a000000-0000-4000-8000-000000000001', type: 'vote', postId: 7, choices: [2] },
      postId: 7,
      email: 'ann@example.com',
      role: 'user',
      at: 1,
    };
    const sync = { seq: 10, likes: 0, status: 'approved' as const, poll: server };
    expect((await localView(sync, [vote], row)).poll).toMatchObject({ counts: [0, 1, 1], voters: 2, ballots: { 'ann@example.com': [2] } });
    // The server applied it (its answer named change 11) and this device pulled change 11: the server's word alone.
    const confirmed = withBallot(server, 'ann@example.com', [2]);
    const pulled = { ...sync, seq: 11, poll: confirmed };
    expect((await localView(pulled, [{ ...vote, ackCursor: 11 }], row)).poll).toMatchObject({ counts: [0, 1, 1], voters: 2 });
  });
});
