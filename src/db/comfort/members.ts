// Member pages from what this device holds (local-only mode, or a connected device offline): a
// member is found by memberId (shared/comfort.ts) of the authors' emails on the device; the page
// shows only what every member may see (approved posts, visible replies, never the email).

import Dexie from 'dexie';
import { db, type PostRow } from '../core/schema';
import { memberId, MEMBER_ID_PATTERN, type MemberProfile } from '../../shared/comfort';

/** The emails on this device (posts' and replies' authors, accounts) whose member id is `id`. */
async function emailsOf(id: string): Promise<string[]> {
  if (!MEMBER_ID_PATTERN.test(id)) return [];
  const emails = new Set<string>();
  // One walk of the author index's keys (no rows read), then the replies' and accounts' emails.
  await db.posts.orderBy('[authorEmail+id]').eachKey((key) => {
    emails.add((key as [string, number])[0]);
  });
  await db.replies.each((reply) => {
    emails.add(reply.authorEmail);
  });
  for (const email of await db.accounts.toCollection().primaryKeys()) emails.add(email);
  return [...emails].filter((email) => memberId(email) === id);
}

/** The member's approved posts on this device, newest first. */
async function approvedPostsOf(emails: readonly string[]): Promise<PostRow[]> {
  const lists = await Promise.all(
    emails.map((email) =>
      db.posts
        .where('[authorEmail+id]')
        .between([email, Dexie.minKey], [email, Dexie.maxKey])
        .filter((post) => post.status === 'approved')
        .toArray(),
    ),
  );
  return lists.flat().sort((a, b) => b.id - a.id);
}

/**
 * The member's profile from this device: their approved posts, visible replies, likes received on
 * those posts; their name; joinedAt from a local account, else null. Null when nothing on this
 * device that every member may see is theirs (and no account here is).
 */
export async function memberProfileOnDevice(id: string): Promise<MemberProfile | null> {
  const emails = await emailsOf(id);
  if (emails.length === 0) return null;
  const posts = await approvedPostsOf(emails);
  const replies = (await db.replies.filter((reply) => emails.includes(reply.authorEmail)).toArray()).sort(
    (a, b) => b.createdAt - a.createdAt,
  );
  const visibleReplies = replies.filter((reply) => reply.state === 'visible');
  const account = (await db.accounts.bulkGet(emails)).find((row) => row !== undefined);
  // Their current name: every row of theirs carries it (a rename reaches each of them).
  const name = account?.name || posts[0]?.author || visibleReplies[0]?.author || '';
  if (!account && posts.length === 0 && visibleReplies.length === 0) return null;
  return {
    id,
    name,
    joinedAt: account ? account.createdAt : null,
    approvedPosts: posts.length,
    replyCount: visibleReplies.length,
    likesReceived: posts.reduce((sum, post) => sum + post.likes, 0),
  };
}

/** Their approved posts on this device, newest first, at most `limit`. */
export async function memberPostsOnDevice(id: string, limit: number): Promise<PostRow[]> {
  const emails = await emailsOf(id);
  if (emails.length === 0) return [];
  return (await approvedPostsOf(emails)).slice(0, Math.max(0, limit));
}
