// A member's read positions on this device and the "N new" they make (issue 62). Reading is the
// `readPost` operation (src/shared/ops/follow.ts); the outbox keeps one unsent position per post
// (ops/outbox.ts), so scrolling a long thread sends a few operations, not one per reply. Each
// position carries its count of new replies (`unread`), kept right by every write
// (storage/unread-upkeep.ts): the counts are one index range, however many posts the device holds.
// The screens' live hooks are src/hooks/use-reads.ts.
import { db } from '../storage/schema';
import { readStoredSession } from '../members/session';
import { runOperation } from '../ops/run-later';

/**
 * Moves the signed-in member's read position in a post to `readTo` (the createdAt of the last reply
 * read; 0: the post itself). Nothing happens when it is not later than the position held.
 */
export async function markRead(postId: number, readTo: number): Promise<void> {
  const email = readStoredSession()?.email;
  if (!email) return;
  const held = await readPositionOf(email, postId);
  if (held !== undefined && held >= readTo) return;
  await runOperation('readPost', { postId, readTo });
}

/** The read position of `email` in a post (undefined: never read). */
export async function readPositionOf(email: string, postId: number): Promise<number | undefined> {
  return (await db.reads.get([email, postId]))?.readTo;
}

/** Every post with new replies for `email` and how many (postId → N new; only N > 0): what `is:unread` keeps. */
export async function unreadCounts(email: string): Promise<Map<number, number>> {
  const rows = await db.reads.where('[email+unread]').between([email, 1], [email, Infinity], true, true).toArray();
  return new Map(rows.map((row) => [row.postId, row.unread]));
}
