// Flags on posts and replies, and the admins' Flags queue. CONTRACT (issue 22): the signatures
// below are fixed; the data-layer work fills in the bodies.

import type { Flag, FlagReason, FlagTarget } from '../../shared/moderation';
import type { EditablePost, UndoToken } from '../posts/editing';
import type { Reply } from '../types';

/** One flagged item of the Flags queue: the post (and the reply, when a reply is flagged) and its open flags, oldest first. */
export interface FlaggedItem {
  target: FlagTarget;
  post: EditablePost;
  reply: Reply | null;
  flags: Flag[];
}

/**
 * Flags a post (`replyId` null) or a reply for the signed-in member. Throws `invalid` (validateFlag's
 * sentence), `already_flagged` (a member flags an item once), `cannot_flag_own`, `not_found` /
 * `reply_not_found`. Connected: queued as a `flag` operation.
 */
export async function flagItem(target: FlagTarget, reason: FlagReason, text = ''): Promise<Flag> {
  void target;
  void reason;
  void text;
  throw new Error('flagItem: not built yet (issue 22 data layer)');
}

/** The signed-in member's own flag on `target`, if any (for "Flagged" on the button). */
export async function getMyFlag(target: FlagTarget): Promise<Flag | undefined> {
  void target;
  throw new Error('getMyFlag: not built yet (issue 22 data layer)');
}

/** Admins: the items with open flags, the most flagged first, then the oldest flag first. */
export async function listFlaggedItems(limit = 50): Promise<FlaggedItem[]> {
  void limit;
  throw new Error('listFlaggedItems: not built yet (issue 22 data layer)');
}

/** Admins: how many items have open flags (the Flags tab's count). */
export async function countFlaggedItems(): Promise<number> {
  throw new Error('countFlaggedItems: not built yet (issue 22 data layer)');
}

/** Admins: dismisses the open flags of an item (the item stays as it is). */
export async function dismissFlags(target: FlagTarget): Promise<void> {
  void target;
  throw new Error('dismissFlags: not built yet (issue 22 data layer)');
}

/**
 * Admins: hides a flagged item: a reply becomes hidden (hideReply), a post leaves the forum
 * (rejected with `reason`, its author notified). Its open flags are settled.
 */
export async function hideFlagged(target: FlagTarget, reason?: string): Promise<void> {
  void target;
  void reason;
  throw new Error('hideFlagged: not built yet (issue 22 data layer)');
}

/** Admins: deletes a flagged item (deletePost / deleteReply, with their Undo); its open flags are settled. */
export async function deleteFlagged(target: FlagTarget): Promise<UndoToken> {
  void target;
  throw new Error('deleteFlagged: not built yet (issue 22 data layer)');
}
