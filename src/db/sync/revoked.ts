// Losing access (connected mode): a category a pull says the member may no longer see (`gone`: its
// groups changed, or they left one of them) takes its posts off the device in the transaction that
// hides it, so no live query ever reads a hidden category with its posts still there. Everything
// hanging off them goes as a server deletion takes it (removeServerPosts: replies, views, queued
// operations, Undo entries, the search index's removal list, read positions and levels), and the
// member's saved rows, their notifications and flags about them, and their level on the category. Nothing the member wrote is lost: a reply or an edit still
// queued, or a reply half-written in its box, becomes a kept draft they can copy. What lives outside IndexedDB
// (the `posts` copy, the first-paint snapshots, cached files) is taken away once the transaction
// has committed (forgetRevoked).

import Dexie from 'dexie';
import { db, type OutboxRow, type ReplyRow } from '../storage/schema';
import { replyDraftMetaKey } from '../contracts';
import { keepDraft } from '../groups/kept-drafts';
import { definitionOf } from '../../shared/ops/registry';
import { POST_STATUSES } from '../../shared/post-rules';
import { removeServerPosts } from '../posts/pulled';
import type { WirePost, WireReply } from '../../shared/protocol';

/** What left the device: the posts, and the files they and their replies carried, or a left conversation's messages (their cached copies go too). */
export interface Revoked {
  posts: number[];
  files: string[];
}

/** A queued reply or edit of the post the server has not taken yet (an acknowledged one is on the server already). */
const unsentWords = (entry: OutboxRow) =>
  entry.ackCursor === undefined && (definitionOf(entry.op.type).creates === 'reply' || definitionOf(entry.op.type).keeps === 'edit');

/** What the member wrote in a queued operation: a reply's text, an edit's title and text. */
function wordsOf(entry: OutboxRow, replies: readonly ReplyRow[]): string | undefined {
  const op = entry.op as { id: string; content?: unknown; post?: { title?: unknown; content?: unknown } };
  if (op.post)
    return typeof op.post.content === 'string'
      ? [op.post.title, op.post.content].filter((part) => typeof part === 'string').join('\n\n')
      : undefined;
  const content = replies.find((reply) => reply.id === op.id)?.content ?? op.content;
  return typeof content === 'string' ? content : undefined;
}

/** The server's posts of these categories on this device (a row of this device's own, never sent, stays: its create is refused and kept as a draft). */
async function postsOf(categories: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const status of POST_STATUSES)
    for (const category of categories) {
      const rows = await db.posts
        .where('[status+category+id]')
        .between([status, category, Dexie.minKey], [status, category, Dexie.maxKey])
        .toArray();
      for (const row of rows) if (row.sync) ids.push(row.id);
    }
  return ids;
}

/**
 * The server's posts among `ids` this device holds, and the files they and their replies carry: what
 * a pull's tombstones take away (a post deleted, hidden from the member, or moved where they may not
 * see it), whose copies outside IndexedDB go too once it has committed (forgetRevoked).
 */
export async function heldRemoved(ids: readonly number[]): Promise<Revoked> {
  const posts: number[] = [];
  const files = new Set<string>();
  if (ids.length === 0) return { posts, files: [] };
  for (const row of await db.posts.bulkGet([...ids])) {
    if (!row?.sync) continue;
    posts.push(row.id);
    for (const file of row.attachments ?? []) files.add(file.sha256);
    const replies = await db.replies.where('[postId+state]').between([row.id, Dexie.minKey], [row.id, Dexie.maxKey]).toArray();
    for (const reply of replies) for (const file of reply.attachments ?? []) files.add(file.sha256);
  }
  return { posts, files: [...files] };
}

/**
 * The files held posts and replies carry that their pulled versions no longer do (a reply hidden from
 * the member or deleted, a file an edit took off a post): their cached copies go too, once the page
 * has committed, so the service worker never serves them from its caches.
 */
export async function filesLeaving(posts: readonly WirePost[], replies: readonly WireReply[]): Promise<string[]> {
  const gone = new Set<string>();
  const compare = (
    held: { attachments?: readonly { sha256: string }[] } | undefined,
    now: { attachments?: readonly { sha256: string }[] },
  ) => {
    if (!held?.attachments?.length) return;
    const kept = new Set((now.attachments ?? []).map((file) => file.sha256));
    for (const file of held.attachments) if (!kept.has(file.sha256)) gone.add(file.sha256);
  };
  if (posts.length > 0) (await db.posts.bulkGet(posts.map((post) => post.id))).forEach((held, index) => compare(held, posts[index]!));
  if (replies.length > 0)
    (await db.replies.bulkGet(replies.map((reply) => reply.id))).forEach((held, index) => compare(held, replies[index]!));
  return [...gone];
}

/**
 * Takes the posts of categories the member may no longer see off the device, inside the caller's
 * readwrite transaction (OP_TABLES). Every post of such a category goes, the member's own too: the
 * server shows a post in a private category only to its groups' members and admins (visibility.ts,
 * maySeeCategory; an admin's device never hears `gone`). `owner` is the signed-in member.
 */
export async function removeHiddenCategoryPosts(categories: readonly string[], owner: string): Promise<Revoked> {
  if (categories.length === 0) return { posts: [], files: [] };
  // The member's levels on them go too (issue 62): a category they cannot see is not theirs to follow.
  await db.follows
    .where('[email+kind+target]')
    .anyOf(categories.map((category) => [owner, 'category', category]))
    .delete();
  const ids = await postsOf(categories);
  if (ids.length === 0) return { posts: [], files: [] };
  const files = new Set<string>();
  for (const post of await db.posts.bulkGet(ids)) for (const file of post?.attachments ?? []) files.add(file.sha256);
  // The replies one key range per post (an anyOf of thousands of compound keys is far slower); the
  // queued operations and the reply boxes in one read each.
  const replies: ReplyRow[] = [];
  for (const id of ids)
    replies.push(...(await db.replies.where('[postId+state]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray()));
  for (const reply of replies) for (const file of reply.attachments ?? []) files.add(file.sha256);
  // What the member wrote and did not send: a queued reply or edit, a reply box's text.
  for (const entry of await db.outbox.where('postId').anyOf(ids).filter(unsentWords).toArray()) {
    const words = wordsOf(entry, replies);
    if (words !== undefined) await keepDraft(entry.email, entry.op.id, words, entry.postId);
  }
  const boxKeys = ids.map((id) => replyDraftMetaKey(owner, id));
  const boxes = await db.meta.bulkGet(boxKeys);
  for (const [index, box] of boxes.entries()) {
    if (typeof box?.value !== 'string') continue;
    await keepDraft(owner, `box-${ids[index]}`, box.value, ids[index]);
    await db.meta.delete(boxKeys[index]!);
  }
  await removeServerPosts(ids);
  const gone = new Set(ids);
  await db.saved.filter((row) => gone.has(row.postId)).delete();
  await db.notifications.filter((row) => gone.has(row.postId)).delete();
  await db.flags.filter((row) => gone.has(row.postId)).delete();
  return { posts: ids, files: [...files] };
}
