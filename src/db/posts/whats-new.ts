// What's new, per member, on this device: a visit is a page load of the app; a post or reply is new
// when it arrived here (arrivedAt, schema version 7) after the previous visit began, was written by
// someone else, and the member has not seen it yet (`seen`). Nothing is new on a first visit, and
// nothing a pull from the start brought (it arrives "long ago", arrivedAt 0).

import Dexie from 'dexie';
import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { metaKeyOf } from './meta-keys';
import { normalizeEmail } from '../../shared/post-rules';

const run = withDataErrors;
const POST_ITEMS = 'post:';
const postItem = (id: number) => `${POST_ITEMS}${id}`;
const replyItem = (id: string) => `reply:${id}`;

/** Records that a visit of `email` begins now; returns when the previous one began (0 on the first visit ever). */
export async function startVisit(email: string, now = Date.now()): Promise<number> {
  const key = metaKeyOf.visit(email);
  return run(() =>
    db.transaction('rw', db.meta, async () => {
      const previous = (await db.meta.get(key))?.value;
      await db.meta.put({ key, value: now });
      return typeof previous === 'number' && Number.isFinite(previous) ? previous : 0;
    }),
  );
}

/** The items of `keys` that `email` has seen. */
async function seenOf(email: string, items: readonly string[]): Promise<Set<string>> {
  const rows = await db.seen.bulkGet(items.map((item) => [email, item] as [string, string]));
  return new Set(rows.flatMap((row) => (row ? [row.item] : [])));
}

/** Approved posts that arrived on this device after `since`, not written by `email`, not seen; newest first. */
export async function newPostIds(email: string, since: number): Promise<number[]> {
  if (!(since > 0)) return [];
  const me = normalizeEmail(email);
  // Keys only (no post is read whole): after an import, every post imported is new, 100,000 of them.
  const arrived = (await db.posts
    .where('[status+arrivedAt]')
    .between(['approved', since], ['approved', Dexie.maxKey], false, true)
    .primaryKeys()) as number[];
  if (arrived.length === 0) return [];
  const mine = new Set(
    (await db.posts.where('[authorEmail+id]').between([me, Dexie.minKey], [me, Dexie.maxKey]).primaryKeys()) as number[],
  );
  // The member's seen posts as keys of one range, not one lookup per new post.
  const seen = new Set(
    (
      (await db.seen
        .where('[email+item]')
        .between([me, POST_ITEMS], [me, `${POST_ITEMS}\uffff`])
        .primaryKeys()) as [string, string][]
    ).map(([, item]) => item),
  );
  return arrived.filter((id) => !mine.has(id) && !seen.has(postItem(id))).sort((a, b) => b - a);
}

/** The visible replies of one post that arrived after `since`, not written by `email`, not seen; newest first. */
export async function newReplyIds(email: string, postId: number, since: number): Promise<string[]> {
  if (!(since > 0)) return [];
  const me = normalizeEmail(email);
  const rows = await db.replies
    .where('[postId+arrivedAt]')
    .between([postId, since], [postId, Dexie.maxKey], false, true)
    .filter((reply) => reply.state === 'visible' && reply.authorEmail !== me)
    .toArray();
  const seen = await seenOf(
    me,
    rows.map((reply) => replyItem(reply.id)),
  );
  return rows
    .filter((reply) => !seen.has(replyItem(reply.id)))
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((reply) => reply.id);
}

/** Marks posts and replies as seen by `email` (they are no longer new; live in every tab). */
export async function markSeen(email: string, items: { postIds?: number[]; replyIds?: string[] }): Promise<void> {
  const me = normalizeEmail(email);
  const rows = [...(items.postIds ?? []).map(postItem), ...(items.replyIds ?? []).map(replyItem)].map((item) => ({ email: me, item }));
  if (rows.length === 0) return;
  await run(() => db.seen.bulkPut(rows));
}
