// Storing the pages of GET /api/posts (issue 44): a window's first pages, an older page, one post
// opened from a link (window.ts says what a window is). Apart from window.ts so that what the
// forum's first screen loads (whether the device holds part) does not bring the pulled-row code.

import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { emitLocalChange } from '../storage/changes';
import { countChange } from '../storage/revisions';
import { META_KEYS } from '../contracts';
import { normalizeEmail } from '../../shared/post-rules';
import type { ForumPage } from '../../shared/protocol';
import { storeServerPosts } from '../posts/pulled';
import { storeServerReplies } from '../replies/pulled';
import { readCursor, readOwner } from '../ops/sync-meta';
import { takesWindow } from './window';
import { SERVER_POST_TABLES } from '../ops/op-tables';

/**
 * Stores a page of GET /api/posts like pulled rows (newer versions win, this device's outstanding
 * operations on top), "long ago" (arrivedAt 0: not news), without moving the pull cursor; a page
 * asked for another member (the device switched meanwhile) is dropped. `floor`: the page was the
 * next older one of all categories, and the device now holds everything down to it. `head`: the
 * page is a window's first (its change head is kept, with the page, for the pull from the start).
 * `beforePull`: only while the device has never pulled and its first sync takes a window (a first
 * page painted before the sync's own code loaded, sync/early-page.ts): once a pull has applied a
 * change, a page asked before it may hold what that change took away; and a first sync that takes
 * no window (after Download the whole forum, or over posts kept from a member switch) pulls every
 * post's rows, which a first page's head would cut short.
 */
export async function storeForumPage(
  page: ForumPage,
  owner: string,
  options: { floor?: number; head?: number; beforePull?: boolean } = {},
): Promise<number> {
  const changed = await withDataErrors(() =>
    db.transaction('rw', SERVER_POST_TABLES(), async () => {
      const holder = await readOwner();
      if (holder !== undefined && holder !== normalizeEmail(owner)) return 0;
      if (options.beforePull && ((await readCursor()) !== 0 || !(await takesWindow()))) return 0;
      if (options.head !== undefined && (await db.meta.get(META_KEYS.windowHead)) === undefined)
        await db.meta.put({ key: META_KEYS.windowHead, value: options.head });
      const stored = (await storeServerPosts(page.posts, 0)) + (await storeServerReplies(page.replies, 0));
      if (options.floor !== undefined) {
        const now = (await db.meta.get(META_KEYS.windowFloor))?.value;
        if (typeof now !== 'number' || (options.floor < now && now > 0))
          await db.meta.put({ key: META_KEYS.windowFloor, value: options.floor });
      }
      if (stored > 0) await countChange();
      return stored;
    }),
  );
  if (changed > 0) emitLocalChange('synced');
  return changed;
}
