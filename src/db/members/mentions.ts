// Who `@` offers in the editor (issue 42): the members this device knows, by a name (or a word of it)
// that starts with what was typed: the authors of the newest posts it holds and, on a device without
// a server, its own accounts. A connected device adds the server's answer (src/sync/mentions.ts).
import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { authorKey, memberId } from '../../shared/members';
import { isConnectedDevice } from '../ops/sync-meta';

export interface MentionCandidate {
  id: string;
  name: string;
}

/** How many members the list offers. */
export const MENTION_LIMIT = 8;
/** How many of the newest posts the device reads for their authors. */
const RECENT_POSTS = 500;

/** True when `name` (or a word of it) starts with `typed` (lower-cased). */
export const nameMatches = (name: string, typed: string): boolean => {
  const lower = name.toLocaleLowerCase('en-US');
  return lower.startsWith(typed) || lower.includes(` ${typed}`);
};

/** Candidates in the order the list shows them: names that start with `typed` first, then by name; each member once, at most MENTION_LIMIT. */
export function rankCandidates(candidates: readonly MentionCandidate[], typed: string, without: string | null = null): MentionCandidate[] {
  const lower = typed.toLocaleLowerCase('en-US');
  const seen = new Set<string>(without ? [without] : []);
  const unique = candidates.filter(
    (candidate) => candidate.id && !seen.has(candidate.id) && seen.add(candidate.id) && nameMatches(candidate.name, lower),
  );
  const starts = (candidate: MentionCandidate) => (candidate.name.toLocaleLowerCase('en-US').startsWith(lower) ? 0 : 1);
  return unique.sort((a, b) => starts(a) - starts(b) || a.name.localeCompare(b.name, 'en-US')).slice(0, MENTION_LIMIT);
}

/** The members this device knows whose name matches `typed`, but `selfEmail` (nobody mentions themselves). */
export async function deviceMentionCandidates(typed: string, selfEmail: string): Promise<MentionCandidate[]> {
  return withDataErrors(async () => {
    const posts = await db.posts.orderBy('id').reverse().limit(RECENT_POSTS).toArray();
    const candidates: MentionCandidate[] = posts.map((post) => ({ id: authorKey(post), name: post.author }));
    if (!(await isConnectedDevice())) {
      for (const account of await db.accounts.toArray()) candidates.push({ id: memberId(account.email), name: account.name });
    }
    return rankCandidates(candidates, typed, memberId(selfEmail));
  });
}

export { isConnectedDevice };
