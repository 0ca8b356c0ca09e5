// Where the post page opens (engineer C, beside reads.ts): the first reply of a post new to the
// member, after their read position.
import Dexie from 'dexie';
import { db } from '../storage/schema';

/**
 * The id of the oldest visible reply by someone other than `reader` written after `readTo` in the
 * post's thread, or null when there is none (everything read).
 */
export async function firstUnreadReplyId(postId: number, readTo: number, reader: string): Promise<string | null> {
  const after = db.replies.where('[postId+listed+createdAt]').between([postId, 1, readTo], [postId, 1, Dexie.maxKey], false, true);
  const reply = await after.filter((row) => row.state === 'visible' && row.authorEmail !== reader).first();
  return reply?.id ?? null;
}
