// Pulling every page from a cursor, as a device does, checking the page rules on the way: every
// row above the previous cursor and at or below the page's, at most `limit` rows unless they all
// share one change number, and no empty page that says more follows.
import { expect } from 'vitest';
import {
  PROTOCOL_VERSION,
  type WireFlag,
  type WireFollow,
  type WireMember,
  type WireNotification,
  type WirePost,
  type WirePreferences,
  type WireRead,
  type WireReply,
  type WireSaved,
} from '../../../src/shared/protocol';
import type { Client } from './client';

/**
 * A pull page as any version sends it (`replies` from version 2, `removed` from version 3,
 * `notifications` and `flags` from 4, `saved` and `preferences` from 5, `members` from 6, groups,
 * categories, conversations and messages from 7 (their change numbers), `follows` and `reads` from 8).
 */
export interface Page {
  posts: WirePost[];
  replies?: WireReply[];
  removed?: { id: number; seq: number }[];
  notifications?: WireNotification[];
  flags?: WireFlag[];
  saved?: WireSaved[];
  preferences?: WirePreferences | null;
  members?: WireMember[];
  groups?: { seq: number }[];
  groupMembers?: { seq: number }[];
  categories?: { seq: number }[];
  conversations?: { seq: number }[];
  messages?: { seq: number }[];
  follows?: WireFollow[];
  reads?: WireRead[];
  cursor: number;
  more: boolean;
}

/** Every page from `after` with `limit`, checking on the way that no change number is split between pages. */
export async function allPages(client: Client, after: number, limit: number, protocol: number | null = PROTOCOL_VERSION): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor = after;
  for (let more = true; more;) {
    const answer = await client.pull(cursor, limit, protocol);
    expect(answer.status).toBe(200);
    const answered = answer.body as Page;
    // A page that carries a save also carries that post and its replies at or below the cursor (for
    // a device that freed space): only those may be that old, and they are not the page's own rows.
    const carriedIds = new Set((answered.saved ?? []).filter((row) => row.saved).map((row) => row.postId));
    for (const post of answered.posts) if (post.seq <= cursor) expect(carriedIds.has(post.id)).toBe(true);
    for (const reply of answered.replies ?? []) if (reply.seq <= cursor) expect(carriedIds.has(reply.postId)).toBe(true);
    const page: Page = {
      ...answered,
      posts: answered.posts.filter((post) => post.seq > cursor),
      ...(answered.replies ? { replies: answered.replies.filter((reply) => reply.seq > cursor) } : {}),
    };
    const seqs = [
      ...page.posts,
      ...(page.replies ?? []),
      ...(page.removed ?? []),
      ...(page.notifications ?? []),
      ...(page.flags ?? []),
      ...(page.saved ?? []),
      ...(page.preferences ? [page.preferences] : []),
      ...(page.members ?? []),
      ...(page.groups ?? []),
      ...(page.groupMembers ?? []),
      ...(page.categories ?? []),
      ...(page.conversations ?? []),
      ...(page.messages ?? []),
      ...(page.follows ?? []),
      ...(page.reads ?? []),
    ].map((row) => row.seq);
    // Every row is above the previous cursor and at or below this one.
    expect(seqs.every((seq) => seq > cursor && seq <= page.cursor)).toBe(true);
    // At most `limit` rows, unless they all share one change number.
    if (seqs.length > limit) expect(new Set(seqs).size).toBe(1);
    if (page.more) expect(seqs.length).toBeGreaterThan(0);
    pages.push(page);
    ({ cursor, more } = page);
    expect(pages.length).toBeLessThan(500);
  }
  return pages;
}
