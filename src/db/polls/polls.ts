// Polls (issue 42): the `vote` and `closePoll` operations (src/shared/ops/vote.ts) from a post's
// page, queued like every other (offline too: a vote cast offline is sent once, when the network
// returns), and the results as a CSV file for the post's author and admins.
import { runOperation } from '../ops/run-later';
import { pollCsv, type Poll } from '../../shared/polls';

/** Casts (or changes) the signed-in member's ballot: the indexes of the options chosen. */
export async function vote(postId: number, choices: readonly number[]): Promise<void> {
  await runOperation('vote', { postId, choices: [...choices] });
}

/** Closes the poll of the post for good (its author or an admin). */
export async function closePoll(postId: number): Promise<void> {
  await runOperation('closePoll', { postId });
}

/** The results as a CSV file's name and text. */
export function pollResultsFile(postId: number, poll: Poll): { name: string; text: string } {
  return { name: `poll-${postId}-results.csv`, text: pollCsv(poll) };
}
