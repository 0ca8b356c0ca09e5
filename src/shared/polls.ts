// Polls (issue 42): a post may carry one poll, a question with 2–10 options, one answer or several,
// open until its author or an admin closes it or its closing time passes. One ballot per member per
// poll, changeable while it is open. The rules and the tally are here, shared by the device (both
// modes) and the server; nothing here imports zod.
import { blank, hiddenText, problem, tooLong, unstorableText, type Problem } from './text-checks';

export const POLL_LIMITS = { question: 300, option: 200, minOptions: 2, maxOptions: 10, maxDays: 366 } as const;

/** What the author writes: the question, the options, one answer or several, an optional closing time (ms). */
export interface PollDefinition {
  question: string;
  options: string[];
  multiple: boolean;
  closesAt: number | null;
}

/**
 * A poll as a device holds it: its definition, when it was closed (null: open until `closesAt`), the
 * votes per option and how many members voted, and the ballots this device knows (the server sends
 * only the viewer's own; a local-only device keeps every member's who voted on it), by email.
 */
export interface Poll extends PollDefinition {
  closedAt: number | null;
  counts: number[];
  voters: number;
  ballots: Record<string, number[]>;
}

/** A poll just written: open, no votes. */
export const newPoll = (definition: PollDefinition): Poll => ({
  ...definition,
  closedAt: null,
  counts: definition.options.map(() => 0),
  voters: 0,
  ballots: {},
});

/** True once the poll takes no more votes: closed by its author or an admin, or past its closing time. */
export const isPollClosed = (poll: Pick<Poll, 'closedAt' | 'closesAt'>, now: number): boolean =>
  poll.closedAt !== null || (poll.closesAt !== null && now >= poll.closesAt);

/** The ballot `email` cast on this poll, or null. */
export const ballotOf = (poll: Poll, email: string): number[] | null => poll.ballots[email] ?? null;

/** The poll with `email`'s ballot set to `choices` (their earlier ballot, if any, taken out of the counts). */
export function withBallot(poll: Poll, email: string, choices: readonly number[]): Poll {
  const before = ballotOf(poll, email);
  const counts = poll.counts.map((count, index) => count - (before?.includes(index) ? 1 : 0) + (choices.includes(index) ? 1 : 0));
  return {
    ...poll,
    counts: counts.map((count) => Math.max(0, count)),
    voters: poll.voters + (before ? 0 : 1),
    ballots: { ...poll.ballots, [email]: [...choices] },
  };
}

/** Each option's share of the voters, in whole percent (0 with no voters). */
export const percentages = (poll: Pick<Poll, 'counts' | 'voters'>): number[] =>
  poll.counts.map((count) => (poll.voters === 0 ? 0 : Math.round((count / poll.voters) * 100)));

const DAY_MS = 24 * 60 * 60 * 1000;

/** How two options are compared: compatibility-normalized (full-width "Ａ" is "A", "ﬁ" is "fi"), case and spacing ignored. */
export const optionKey = (option: string): string => option.normalize('NFKC').toLocaleLowerCase('en-US').replace(/\s+/gu, ' ').trim();

/**
 * The problem of a poll as written (a question, 2–10 options, none blank, none the same as another
 * once normalized, each one line without hidden characters, a closing time in the future and within
 * a year), or null. A blank option is refused, never dropped: what is kept is what the author saw.
 * `now`: the writer's clock (without it, the closing time need only be a time: an operation checks
 * it against its own time when it runs).
 */
export function validatePoll(poll: PollDefinition, now?: number): Problem | null {
  if (blank(poll.question)) return problem('Poll needs a question', 'Write the question your poll asks.');
  const tooLongOrBad =
    tooLong('The question', poll.question.trim(), POLL_LIMITS.question) ??
    unstorableText('The question', poll.question) ??
    hiddenText('The question', poll.question, 'line');
  if (tooLongOrBad) return tooLongOrBad;
  const { options } = poll;
  if (options.length > POLL_LIMITS.maxOptions) return problem('Too many options', `A poll has at most ${POLL_LIMITS.maxOptions} options.`);
  const empty = options.findIndex((option) => blank(option));
  if (empty >= 0 && options.length > POLL_LIMITS.minOptions)
    return problem('Option is empty', `Option ${empty + 1} is empty: write it or remove it.`);
  if (options.length < POLL_LIMITS.minOptions || empty >= 0) return problem('Poll needs options', 'Give your poll at least 2 options.');
  for (const [index, option] of options.entries()) {
    const field = `Option ${index + 1}`;
    const bad = tooLong(field, option.trim(), POLL_LIMITS.option) ?? unstorableText(field, option) ?? hiddenText(field, option, 'line');
    if (bad) return bad;
  }
  if (new Set(options.map(optionKey)).size !== options.length) {
    return problem('Options repeat', 'Each option of a poll must be different.');
  }
  if (poll.closesAt !== null) {
    if (!Number.isSafeInteger(poll.closesAt) || poll.closesAt < 0)
      return problem('Closing date not valid', 'Choose the closing date from the calendar.');
    if (now === undefined) return null;
    if (poll.closesAt <= now) return problem('Closing date passed', 'Choose a closing date in the future.');
    if (poll.closesAt > now + POLL_LIMITS.maxDays * DAY_MS)
      return problem('Closing date too far', 'A poll can stay open for at most a year.');
  }
  return null;
}

/** The problem of a ballot on `poll` (at least one option, each once, one only unless several answers are allowed), or null. */
export function validateBallot(poll: Pick<Poll, 'options' | 'multiple'>, choices: readonly number[]): Problem | null {
  const valid = choices.every((choice) => Number.isInteger(choice) && choice >= 0 && choice < poll.options.length);
  if (choices.length === 0 || !valid || new Set(choices).size !== choices.length) {
    return problem('Choose an option', 'Choose an option of this poll before voting.');
  }
  if (!poll.multiple && choices.length > 1) return problem('One answer only', 'This poll takes one answer.');
  return null;
}

/** The results as CSV (Option, Votes, Percent; a quote doubled inside quotes; a leading =, +, - or @ defused). */
export function pollCsv(poll: Poll): string {
  const cell = (value: string) => `"${(/^[=+\-@]/.test(value) ? `'${value}` : value).replaceAll('"', '""')}"`;
  const shares = percentages(poll);
  const rows = poll.options.map((option, index) => [cell(option), String(poll.counts[index] ?? 0), String(shares[index] ?? 0)].join(','));
  return (
    [[cell('Option'), cell('Votes'), cell('Percent')].join(','), ...rows, [cell('Voters'), String(poll.voters), ''].join(',')].join(
      '\r\n',
    ) + '\r\n'
  );
}
