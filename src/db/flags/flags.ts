// Flags on posts and replies, and the admins' Flags queue. A member flags what others wrote, once
// per item; admins dismiss an item's flags, hide it or delete it (which settles them): the
// operations flag, dismissFlags and hidePost (src/shared/ops, run here by ops/run.ts). The queue is
// one index range of the open flags (`[open+target]`).

import { db, type FlagRow } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { openFlagsOf, toFlag } from './flag-rows';
import { countFlaggedItems, openFlags } from './flag-count';

export { countFlaggedItems };
import { requireAdmin } from '../members/guards';
import { readStoredSession } from '../members/session';
import { toEditablePost } from '../posts/posts';
import { deletePost, type EditablePost } from '../posts/editing';
import type { UndoToken } from '../ops/undo';
import { deleteReply, hideReply, toReply } from '../replies/replies';
import { runOperation } from '../ops/run-later';
import { newOperationId } from '../ops/uuid';
import { targetKey, type Flag, type FlagReason, type FlagTarget } from '../../shared/moderation';
import type { Reply } from '../types';

/** One flagged item of the Flags queue: the post (and the reply, when a reply is flagged) and its open flags, oldest first. */
export interface FlaggedItem {
  target: FlagTarget;
  post: EditablePost;
  reply: Reply | null;
  flags: Flag[];
}

const run = withDataErrors;

const normalized = (target: FlagTarget): FlagTarget => ({ postId: target.postId, replyId: target.replyId ?? null });

/**
 * Flags a post (`replyId` null) or a reply for the signed-in member (the `flag` operation). Throws
 * `invalid` (validateFlag's sentence), `already_flagged` (a member flags an item once),
 * `cannot_flag_own`, `not_found` / `reply_not_found` (an approved post, a visible reply).
 */
export async function flagItem(target: FlagTarget, reason: FlagReason, text = ''): Promise<Flag> {
  const item = normalized(target);
  const id = newOperationId();
  await runOperation('flag', { postId: item.postId, replyId: item.replyId, reason, text }, { id });
  return toFlag((await run(() => db.flags.get(id)))!);
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

/** Admins: the items with open flags, the most flagged first, then the oldest flag first. */
export async function listFlaggedItems(limit = 50): Promise<FlaggedItem[]> {
  const session = requireAdmin();
  return run(async () => {
    const byTarget = new Map<string, FlagRow[]>();
    for (const row of await openFlags().toArray()) {
      const list = byTarget.get(row.target);
      if (list) list.push(row);
      else byTarget.set(row.target, [row]);
    }
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

/** Admins: dismisses the open flags of an item (the `dismissFlags` operation; the item stays as it is). */
export async function dismissFlags(target: FlagTarget): Promise<void> {
  const item = normalized(target);
  await runOperation('dismissFlags', { postId: item.postId, replyId: item.replyId });
}

/**
 * Admins: hides a flagged item: a reply becomes hidden (hideReply), a post leaves the forum (the
 * `hidePost` operation: rejected with `reason`, its author notified; a post not approved:
 * `not_on_forum`). Its open flags are settled.
 */
export async function hideFlagged(target: FlagTarget, reason?: string): Promise<void> {
  const item = normalized(target);
  if (item.replyId) return hideReply(item.replyId);
  await runOperation('hidePost', reason === undefined ? { postId: item.postId } : { postId: item.postId, reason });
}

/** Admins: deletes a flagged item (deletePost / deleteReply, with their Undo); its open flags are settled. */
export async function deleteFlagged(target: FlagTarget): Promise<UndoToken> {
  requireAdmin();
  const item = normalized(target);
  return item.replyId ? deleteReply(item.replyId) : deletePost(item.postId);
}

/** The open flags of one target (admins' view of an item), oldest first. */
export async function listOpenFlags(target: FlagTarget): Promise<Flag[]> {
  requireAdmin();
  const rows = await run(() => openFlagsOf(normalized(target)).toArray());
  return rows.sort((a, b) => a.createdAt - b.createdAt).map(toFlag);
}
