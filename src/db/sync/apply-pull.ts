// Applying pulled changes (connected mode): one page of GET /api/changes is stored in one
// readwrite transaction together with its cursor, so a crash between pages loses nothing and
// the next pull resumes after the last page that committed.

import { db } from '../core/schema';
import { emitLocalChange } from '../core/changes';
import { countChange } from '../core/revisions';
import type { PullResponse } from '../../shared/protocol';
import { refreshLocalView } from './outbox';
import { storeServerPosts } from './server-posts';
import { SYNC_META, readCursor } from './sync-meta';

/**
 * Stores one page and its cursor atomically; a page at or below the stored cursor changes
 * nothing. Operations acknowledged at or below the cursor are now part of the server state.
 */
export async function applyPullPage(page: PullResponse, owner: string): Promise<{ changed: number }> {
  const changed = await db.transaction('rw', db.posts, db.meta, db.outbox, async () => {
    const cursor = await readCursor();
    if (page.cursor < cursor && page.posts.length === 0) return 0;
    const stored = await storeServerPosts(page.posts);
    const settled = await db.outbox.filter((row) => row.ackCursor !== undefined && row.ackCursor <= page.cursor).toArray();
    if (settled.length > 0) {
      await db.outbox.bulkDelete(settled.map((row) => row.seq!));
      for (const postId of new Set(settled.map((row) => row.postId))) await refreshLocalView(postId);
    }
    await db.meta.put({ key: SYNC_META.cursor, value: Math.max(cursor, page.cursor) });
    await db.meta.put({ key: SYNC_META.owner, value: owner });
    if (stored + settled.length > 0) await countChange();
    return stored + settled.length;
  });
  if (changed > 0) emitLocalChange('synced');
  return { changed };
}
