// A member's saved posts on this device (comfort). Saving writes the `saved` row now and, on a
// connected device, queues a `save` in the same transaction (local-only: the row is all there is).
// Dexie's live queries show it in every tab. Saved posts and their replies stay on the device
// whatever else Free up space or a member switch removes (free-space.ts, sync/member-switch.ts).

import { db, type PostRow } from '../core/schema';
import { DataError, withDataErrors } from '../core/errors';
import { emitLocalChange } from '../core/changes';
import { requireSession } from '../accounts/guards';
import { normalizeEmail } from '../../shared/post-rules';
import { queueOperation } from '../sync/outbox';

const run = withDataErrors;

/** The saved rows of one member, newest saved first (saved and unsaved). */
const savedRows = (email: string) =>
  db.saved
    .where('[email+at]')
    .between([normalizeEmail(email), -Infinity], [normalizeEmail(email), Infinity])
    .reverse();

/**
 * Saves (or unsaves) a post for the signed-in member `email`: only a post on the forum (approved,
 * on this device) can be saved (`not_saveable`); unsaving always works. Connected: queues `save`.
 */
export async function setSaved(email: string, postId: number, saved: boolean): Promise<void> {
  const session = requireSession();
  if (session.email !== normalizeEmail(email)) throw new DataError('not_signed_in');
  await run(() =>
    db.transaction('rw', [db.saved, db.posts, db.meta, db.outbox], async () => {
      const stored = await db.saved.get([session.email, postId]);
      if ((stored?.saved ?? false) === saved) return;
      if (saved && (await db.posts.get(postId))?.status !== 'approved') throw new DataError('not_saveable', { postId });
      await db.saved.put({ email: session.email, postId, saved, at: Date.now(), ...(stored?.sync ? { sync: stored.sync } : {}) });
      await queueOperation({ type: 'save', saved }, postId, session);
    }),
  );
  emitLocalChange('saved');
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
  return posts.filter((post): post is PostRow => post !== undefined && post.status === 'approved');
}

/** True when the member has the post saved. */
export async function isSaved(email: string, postId: number): Promise<boolean> {
  return (await db.saved.get([normalizeEmail(email), postId]))?.saved === true;
}
