// Flags on posts and replies, and the admins' Flags queue. A member flags what others wrote, once
// per item; admins dismiss an item's flags, hide it or delete it (which settles them). Each write
// is one Dexie transaction with its queued operation (connected mode); the queue is one index
// range of the open flags (`[open+target]`).

import Dexie from 'dexie';
import { db, type FlagRow, type PostRow, type ReplyRow } from '../core/schema';
import { emitLocalChange } from '../core/changes';
import { countChange, nextRev } from '../core/revisions';
import { DataError, invalidInput, withDataErrors } from '../core/errors';
import { flagRow, openFlagsOf, settleFlags, targetsOfPost, toFlag } from '../core/flag-rows';
import { requireModerator, requireSession } from '../accounts/guards';
import { readStoredSession } from '../accounts/session';
import { checkedReason, maySee, toEditablePost } from '../posts/posts';
import { deletePost, type EditablePost, type UndoToken } from '../posts/editing';
import { deleteReply, hideReply, toReply } from '../replies/replies';
import { writeNotifications } from '../notifications/notifications';
import { queueOperation, reachesServer } from '../sync/outbox';
import { newOperationId } from '../sync/uuid';
import { mayFlag, notificationsForReview, targetKey, type Flag, type FlagReason, type FlagTarget } from '../../shared/moderation';
import { validateFlag } from '../../shared/validation';
import type { Reply, Session } from '../types';

/** One flagged item of the Flags queue: the post (and the reply, when a reply is flagged) and its open flags, oldest first. */
export interface FlaggedItem {
  target: FlagTarget;
  post: EditablePost;
  reply: Reply | null;
  flags: Flag[];
}

const run = withDataErrors;
const FLAG_TABLES = [db.posts, db.replies, db.flags, db.meta, db.outbox, db.notifications] as const;

const normalized = (target: FlagTarget): FlagTarget => ({ postId: target.postId, replyId: target.replyId ?? null });

/** The post and reply a target names, as `session` may see them, or `not_found` / `reply_not_found`. */
async function itemOf(target: FlagTarget, session: Session): Promise<{ post: PostRow; reply: ReplyRow | null }> {
  const post = await db.posts.get(target.postId);
  if (!post || !maySee(post, session)) throw new DataError('not_found', { postId: target.postId });
  if (!target.replyId) return { post, reply: null };
  const reply = await db.replies.get(target.replyId);
  if (!reply || reply.postId !== post.id || reply.state === 'deleted') throw new DataError('reply_not_found');
  return { post, reply };
}

/** Runs one moderation write as a transaction, then tells the page's followers. */
async function write<T>(work: () => Promise<T>): Promise<T> {
  const result = await run(() => db.transaction('rw', FLAG_TABLES, work));
  emitLocalChange('moderated');
  return result;
}

/**
 * Flags a post (`replyId` null) or a reply for the signed-in member. Throws `invalid` (validateFlag's
 * sentence), `already_flagged` (a member flags an item once), `cannot_flag_own`, `not_found` /
 * `reply_not_found`. Connected: queued as a `flag` operation.
 */
export async function flagItem(target: FlagTarget, reason: FlagReason, text = ''): Promise<Flag> {
  const session = requireSession();
  const problem = validateFlag(reason, text);
  if (problem) throw invalidInput(problem);
  const item = normalized(target);
  return write(async () => {
    const { post, reply } = await itemOf(item, session);
    if (!mayFlag(reply ?? post, session)) throw new DataError('cannot_flag_own');
    if (
      (await db.flags
        .where('[flaggerEmail+target]')
        .equals([session.email, targetKey(item)])
        .count()) > 0
    ) {
      throw new DataError('already_flagged');
    }
    const flag: Flag = {
      id: newOperationId(),
      ...item,
      reason,
      text: text.trim(),
      flagger: session.name,
      flaggerEmail: session.email,
      createdAt: Date.now(),
      state: 'open',
    };
    await db.flags.add(flagRow(flag));
    if (await reachesServer(post.id)) {
      await queueOperation({ type: 'flag', id: flag.id, replyId: item.replyId, reason, text: flag.text }, post.id, session);
    }
    return flag;
  });
}

/** The signed-in member's own flag on `target`, if any (for "Flagged" on the button). */
export async function getMyFlag(target: FlagTarget): Promise<Flag | undefined> {
  const session = readStoredSession();
  if (!session) return undefined;
  const row = await run(() =>
    db.flags
      .where('[flaggerEmail+target]')
      .equals([session.email, targetKey(normalized(target))])
      .first(),
  );
  return row && toFlag(row);
}

/** The open flags, one index range. */
const openFlags = () => db.flags.where('[open+target]').between([1, Dexie.minKey], [1, Dexie.maxKey]);

/** Admins: the items with open flags, the most flagged first, then the oldest flag first. */
export async function listFlaggedItems(limit = 50): Promise<FlaggedItem[]> {
  const session = requireModerator();
  return run(async () => {
    const byTarget = new Map<string, FlagRow[]>();
    for (const row of await openFlags().toArray()) byTarget.set(row.target, [...(byTarget.get(row.target) ?? []), row]);
    const groups = [...byTarget.values()].map((rows) => rows.sort((a, b) => a.createdAt - b.createdAt));
    groups.sort((a, b) => b.length - a.length || a[0]!.createdAt - b[0]!.createdAt);
    const items: FlaggedItem[] = [];
    for (const rows of groups) {
      if (items.length >= limit) break;
      const target = normalized(rows[0]!);
      const post = await db.posts.get(target.postId);
      const reply = target.replyId ? await db.replies.get(target.replyId) : undefined;
      // An item gone from this device (deleted elsewhere, its settling not pulled yet) is not listed.
      if (!post || (target.replyId && (!reply || reply.state === 'deleted'))) continue;
      items.push({ target, post: toEditablePost(post, session), reply: reply ? toReply(reply) : null, flags: rows.map(toFlag) });
    }
    return items;
  });
}

/** Admins: how many items have open flags (the Flags tab's count): the distinct keys of one index range. */
export async function countFlaggedItems(): Promise<number> {
  requireModerator();
  return run(async () => (await openFlags().uniqueKeys()).length);
}

/** Admins: dismisses the open flags of an item (the item stays as it is). */
export async function dismissFlags(target: FlagTarget): Promise<void> {
  const session = requireModerator();
  const item = normalized(target);
  await write(async () => {
    await settleFlags([item], 'dismissed');
    // Queued even when none is open here: the server may hold flags this device has not pulled yet.
    if (await reachesServer(item.postId)) await queueOperation({ type: 'dismissFlags', replyId: item.replyId }, item.postId, session);
  });
}

/**
 * Admins: hides a flagged item: a reply becomes hidden (hideReply), a post leaves the forum
 * (rejected with `reason`, its author notified; a post not approved: `not_on_forum`). Its open flags are settled.
 */
export async function hideFlagged(target: FlagTarget, reason?: string): Promise<void> {
  const session = requireModerator();
  const item = normalized(target);
  if (item.replyId) {
    await hideReply(item.replyId);
    return;
  }
  const checked = checkedReason(reason);
  await write(async () => {
    const { post } = await itemOf(item, session);
    if (post.status !== 'approved') throw new DataError('not_on_forum', { postId: post.id });
    await db.posts.put({ ...post, status: 'rejected', reason: checked, rev: await nextRev() });
    await countChange();
    // Its replies' flags too: no member sees them any more.
    const replies = await db.replies
      .where('[postId+listed+createdAt]')
      .between([post.id, 0, Dexie.minKey], [post.id, 1, Dexie.maxKey])
      .toArray();
    await settleFlags(targetsOfPost(post.id, replies), 'resolved');
    await writeNotifications(notificationsForReview(post, 'postHidden', checked, session));
    if (await reachesServer(post.id)) {
      const input = checked ? { type: 'hidePost' as const, reason: checked } : { type: 'hidePost' as const };
      await queueOperation(input, post.id, session, { previousStatus: 'approved' });
    }
  });
}

/** Admins: deletes a flagged item (deletePost / deleteReply, with their Undo); its open flags are settled. */
export async function deleteFlagged(target: FlagTarget): Promise<UndoToken> {
  requireModerator();
  const item = normalized(target);
  return item.replyId ? deleteReply(item.replyId) : deletePost(item.postId);
}

/** The open flags of one target (admins' view of an item), oldest first. */
export async function listOpenFlags(target: FlagTarget): Promise<Flag[]> {
  requireModerator();
  const rows = await run(() => openFlagsOf(normalized(target)).toArray());
  return rows.sort((a, b) => a.createdAt - b.createdAt).map(toFlag);
}
