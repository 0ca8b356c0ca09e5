// The forum beyond what this device holds (issue 44, connected mode): the next older page of the
// forum or of one category, and one post opened from a link, asked from the server when the member
// goes there and kept (db/sync/window.ts). Errors are the app's usual ones (api.ts): `offline`
// when the server cannot be reached, the server's own code and sentence otherwise.

import { readCursor } from '../db/ops/sync-meta';
import { readWindow } from '../db/sync/window';
import { storeForumPage } from '../db/sync/window-store';
import type { CategoryFilter } from '../db/types';
import { createApi, type SyncApi } from './api';

const defaultApi = (): SyncApi => createApi((input, init) => fetch(input, init));

/** Posts a page of older posts asks for: a few screens. */
export const OLDER_PAGE = 50;

/** Where the next older page of each category starts (this page load). */
const nextBefore = new Map<CategoryFilter, number>();

/**
 * Asks the server for the next older page of `category` ("All": the forum) and keeps it: all
 * categories below the device's floor (which then moves down), one category below the last page
 * of it asked. Returns whether more follow.
 */
export async function loadOlderPosts(email: string, category: CategoryFilter, api: SyncApi = defaultApi()): Promise<boolean> {
  if (!api.posts) throw new Error('This client cannot read pages of the forum.');
  const { floor } = await readWindow();
  const before = Math.min(nextBefore.get(category) ?? floor, floor > 0 ? floor : Number.MAX_SAFE_INTEGER);
  if (before <= 1) return false;
  const page = await api.posts({
    limit: OLDER_PAGE,
    before,
    after: await readCursor(),
    ...(category === 'All' ? {} : { category }),
  });
  const last = page.posts.at(-1)?.id;
  const more = page.more && last !== undefined;
  // A page of every category leaves no approved post above its last one off the device.
  await storeForumPage(page, email, category === 'All' ? { floor: more ? last : 1 } : {});
  if (more) nextBefore.set(category, last);
  return more;
}

/** GET /api/posts/:id: a post this device does not hold, with its replies, kept (`not_found` when the member may not see it). */
export async function fetchPost(id: number, email: string, api: SyncApi = defaultApi()): Promise<void> {
  if (!api.post) throw new Error('This client cannot read posts from the server.');
  await storeForumPage(await api.post(id, await readCursor()), email);
}

/** Forgets where the pages were (a member switch, tests). */
export function resetOlderPages(): void {
  nextBefore.clear();
}
