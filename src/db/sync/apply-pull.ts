// Applying pulled changes (connected mode): one page of GET /api/changes is stored in one
// readwrite transaction together with its cursor, so a crash between pages loses nothing and
// the next pull resumes after the last page that committed.

import { db } from '../core/schema';
import { emitLocalChange } from '../core/changes';
import { countChange } from '../core/revisions';
import type { PullResponse } from '../../shared/protocol';
import { refreshLocalView } from './outbox';
import { removeServerPosts, storeServerPosts } from './server-posts';
import { refreshReplyView, storeServerReplies } from './server-replies';
import { SYNC_META, readCursor } from './sync-meta';
import { storeServerFlags, storeServerNotifications } from './server-moderation';

/**
 * Stores one page and its cursor atomically; a page at or below the stored cursor changes
 * nothing. Operations acknowledged at or below the cursor are now part of the server state.
 * The page's removed posts leave the device with their replies; its notifications (the member's)
 * and flags are upserted.
 */
export async function applyPullPage(page: PullResponse, owner: string): Promise<{ changed: number }> {
  const tables = [db.posts, db.replies, db.viewed, db.meta, db.outbox, db.notifications, db.flags];
  const changed = await db.transaction('rw', tables, async () => {
    const cursor = await readCursor();
    const empty = [page.posts, page.replies, page.removed, page.notifications, page.flags].every((list) => list.length === 0);
    if (page.cursor < cursor && empty) return 0;
    // Posts first: a reply's post is then on the device when the reply is counted. Removed posts
    // last: a post deleted in the page's range is gone whatever else the page says of it.
    const stored =
      (await storeServerPosts(page.posts)) +
      (await storeServerReplies(page.replies)) +
      (await removeServerPosts(page.removed.map((removed) => removed.id))) +
      (await storeServerNotifications(page.notifications, owner)) +
      (await storeServerFlags(page.flags));
    const settled = await db.outbox.filter((row) => row.ackCursor !== undefined && row.ackCursor <= page.cursor).toArray();
    if (settled.length > 0) {
      await db.outbox.bulkDelete(settled.map((row) => row.seq!));
      for (const postId of new Set(settled.map((row) => row.postId))) await refreshLocalView(postId);
      for (const replyId of new Set(settled.map((row) => row.replyId))) if (replyId) await refreshReplyView(replyId);
    }
    await db.meta.put({ key: SYNC_META.cursor, value: Math.max(cursor, page.cursor) });
    await db.meta.put({ key: SYNC_META.owner, value: owner });
    if (stored + settled.length > 0) await countChange();
    return stored + settled.length;
  });
  if (changed > 0) emitLocalChange('synced');
  return { changed };
}
