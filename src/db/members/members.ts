// Member pages from what this device holds (local-only mode, or a connected device offline): a
// member is found by the author key of what they wrote (shared/members.ts, authorKey): the server's
// random id on a connected device (the `authorId` index), memberId of the email on a local-only one
// (the rows without an id, walked by their authors' emails). The page shows only what every member
// may see (approved posts, visible replies, never the email).

import Dexie from 'dexie';
import { db, type PostRow, type ReplyRow } from '../storage/schema';
import { authorKey, memberId, MEMBER_ID_PATTERN, type MemberProfile } from '../../shared/members';
import { isConnectedDevice } from '../ops/sync-meta';
import { isPublicPost, isPublicReply, mayReadReply } from '../../shared/visibility';

/** The emails of local-only authors on this device (rows without an id: posts' authors, `replies`' authors, accounts) whose member id is `id`. */
async function emailsOf(id: string, replies: readonly ReplyRow[]): Promise<string[]> {
  const emails = new Set<string>();
  // One walk of the author index's keys (no rows read), then the replies' and accounts' emails.
  await db.posts.orderBy('[authorEmail+id]').eachKey((key) => {
    emails.add((key as [string, number])[0]);
  });
  for (const reply of replies) if (!reply.authorId) emails.add(reply.authorEmail);
  for (const email of await db.accounts.toCollection().primaryKeys()) emails.add(email);
  return [...emails].filter((email) => email !== '' && memberId(email) === id);
}

/** The member's approved posts on this device, newest first: by their id, and (local-only rows) by their emails. */
async function approvedPostsOf(id: string, emails: readonly string[]): Promise<PostRow[]> {
  const byId = await db.posts.where('authorId').equals(id).toArray();
  const byEmail = await Promise.all(
    emails.map((email) =>
      db.posts
        .where('[authorEmail+id]')
        .between([email, Dexie.minKey], [email, Dexie.maxKey])
        .filter((post) => !post.authorId)
        .toArray(),
    ),
  );
  return [...byId, ...byEmail.flat()].filter((post) => isPublicPost(post)).sort((a, b) => b.id - a.id);
}

/** When a post (its date) or a reply was written, in ms (0 when unreadable). */
const timeOf = (row: PostRow | ReplyRow) => ('date' in row ? Date.parse(row.date) : row.createdAt) || 0;

/**
 * The member's profile from this device: their approved posts, their visible replies to approved
 * posts (as the server counts them), likes received on those posts; their name and role as their
 * newest row carries them (a rename reaches each row); joinedAt from a local-only account's
 * creation, else null (a connected device's account row is its offline sign-in record, written at
 * each sign-in, not the member's join). Null when nothing on this device that every member may see
 * is theirs (and no account here is).
 */
export async function memberProfileOnDevice(id: string): Promise<MemberProfile | null> {
  if (!MEMBER_ID_PATTERN.test(id)) return null;
  // Replies are read once, for the local-only emails and for the count.
  const allReplies = await db.replies.toArray();
  const emails = await emailsOf(id, allReplies);
  const posts = await approvedPostsOf(id, emails);
  const replies = allReplies
    .filter((reply) => mayReadReply(reply, null) && authorKey(reply) === id)
    .sort((a, b) => b.createdAt - a.createdAt);
  const parents = await db.posts.bulkGet([...new Set(replies.map((reply) => reply.postId))]);
  const byId = new Map(parents.filter((post) => post !== undefined).map((post) => [post.id, post]));
  // What everyone may read (src/shared/visibility.ts), as the server's member page counts it.
  const visibleReplies = replies.filter((reply) => {
    const post = byId.get(reply.postId);
    return post !== undefined && isPublicReply(reply, post);
  });
  const account = (await db.accounts.bulkGet(emails)).find((row) => row !== undefined);
  if (!account && posts.length === 0 && visibleReplies.length === 0) return null;
  const newestRow = [posts[0], visibleReplies[0]].filter((row) => row !== undefined).sort((a, b) => timeOf(b) - timeOf(a))[0];
  const connected = await isConnectedDevice();
  return {
    id,
    name: newestRow?.author || account?.name || '',
    role: (newestRow?.authorRole ?? account?.role) === 'admin' ? 'admin' : 'user',
    joinedAt: account && !connected ? account.createdAt : null,
    approvedPosts: posts.length,
    replyCount: visibleReplies.length,
    likesReceived: posts.reduce((sum, post) => sum + post.likes, 0),
  };
}

/** Their approved posts on this device, newest first, at most `limit`. */
export async function memberPostsOnDevice(id: string, limit: number): Promise<PostRow[]> {
  if (!MEMBER_ID_PATTERN.test(id)) return [];
  const emails = await emailsOf(id, await db.replies.toArray());
  return (await approvedPostsOf(id, emails)).slice(0, Math.max(0, limit));
}
