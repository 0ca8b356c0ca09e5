// A member's saved posts on this device. Saving is the `save` operation (src/shared/ops/save.ts, run
// here by ops/run.ts; local-only: the row is all there is).
// Dexie's live queries show it in every tab. Saved posts and their replies stay on the device
// whatever else Free up space or a member switch removes (free-space.ts, sync/member-switch.ts).

import { db, type PostRow } from '../storage/schema';
import { DataError } from '../storage/errors';
import { requireSession } from '../members/guards';
import { normalizeEmail } from '../../shared/post-rules';
import { isPublicPost } from '../../shared/visibility';
import { runOperation } from '../ops/run-later';

/** The saved rows of one member, newest saved first (saved and unsaved). */
const savedRows = (email: string) =>
  db.saved
    .where('[email+at]')
    .between([normalizeEmail(email), -Infinity], [normalizeEmail(email), Infinity])
    .reverse();

/**
 * Saves (or unsaves) a post for the signed-in member `email` (the `save` operation): only a post on
 * the forum can be saved (`not_saveable`); unsaving always works. Connected: queued for the server.
 */
export async function setSaved(email: string, postId: number, saved: boolean): Promise<void> {
  const session = requireSession();
  if (session.email !== normalizeEmail(email)) throw new DataError('not_signed_in');
  await runOperation('save', { postId, saved });
}

/** The ids of the member's saved posts, newest saved first (for useLiveQuery). */
export async function savedPostIds(email: string): Promise<number[]> {
  const rows = await savedRows(email)
    .filter((row) => row.saved)
    .toArray();
  return rows.map((row) => row.postId);
}

/** The member's saved posts that are on this device, newest saved first (Profile's "Saved Posts"). */
export async function savedPosts(email: string): Promise<PostRow[]> {
  const ids = await savedPostIds(email);
  const posts = await db.posts.bulkGet(ids);
  return posts.filter((post): post is PostRow => post !== undefined && isPublicPost(post));
}

/** True when the member has the post saved. */
export async function isSaved(email: string, postId: number): Promise<boolean> {
  return (await db.saved.get([normalizeEmail(email), postId]))?.saved === true;
}
