// What the device asks the server to read for it (connected mode): the server's ranked search, for
// when the device holds only part of the forum, and member pages. Errors are the app's usual ones: `offline` when the
// server cannot be reached, the server's own code and sentence otherwise (api.ts).

import { readCursor } from '../db/ops/sync-meta';
import { storeSearchedPosts } from '../db/sync/apply-pull';
import type { MemberProfile } from '../shared/members';
import { MAX_SEARCH_LIMIT } from '../shared/protocol';
import { createApi, type SyncApi } from './api';

const defaultApi = (): SyncApi => createApi((input, init) => fetch(input, init));

/** The server's answer as the screen shows it: ids best first, the count ("100+" when `more`), the reply each post was found by. */
export interface ServerSearchAnswer {
  ids: number[];
  total: number;
  more: boolean;
  /** Post id → the reply whose words matched (the post's own did not, or less). */
  replies: Record<number, string>;
}

/**
 * GET /api/search, with the device's cursor: stores the posts found like pulled posts (the pull cursor stays), so their cards
 * and pages work, and returns their ids, best first, with how many match (up to 100) and the replies found.
 */
export async function searchServer(
  query: string,
  category: string,
  api: SyncApi = defaultApi(),
  cursor: Promise<number> = readCursor(),
): Promise<ServerSearchAnswer> {
  if (!api.search) throw new Error('This client cannot search the server.');
  // The device's cursor lets the server answer from a replica that has replayed that far (read while
  // typing pauses by the caller: a busy IndexedDB then does not hold the request up).
  const answer = await api.search(query, category, MAX_SEARCH_LIMIT, await cursor);
  await storeSearchedPosts(answer.posts);
  return {
    ids: answer.posts.map((post) => post.id),
    total: answer.total,
    more: answer.more,
    replies: Object.fromEntries(answer.matches.map((match) => [match.postId, match.replyId])),
  };
}

/** GET /api/members/:id: the member's public profile (`member_not_found` when there is none). */
export async function fetchMemberProfile(id: string, api: SyncApi = defaultApi()): Promise<MemberProfile> {
  if (!api.member) throw new Error('This client cannot read member pages.');
  return api.member(id);
}
