// What outlives IndexedDB of posts the member lost access to (revoked.ts) and of conversations they
// left (messages/pulled.ts), taken away once the transaction that removed them has committed: the
// `posts` copy in localStorage is written again from IndexedDB at once (the mirror hears `revoked`,
// db/mirror/scheduler.ts), the first-paint snapshots that could show those posts go (the forum's list,
// their pages: the screens on show store fresh ones), the files leave both attachment caches, and the
// system notifications about those posts (features/notifications/notification-watcher.tsx: their
// title on the screen and in the system's list) are closed. A refusal of one step never keeps the others.

import { ATTACHMENT_CACHE, FORUM_SNAPSHOT_URL, POST_SNAPSHOT_PREFIX, SAVED_ATTACHMENT_CACHE } from '../contracts';
import { attachmentPath } from '../saved/saved-files';
import { dropSnapshot } from '../storage/forum-snapshot';
import { dropExpiryRecords } from '../storage/cache-expiry';
import { closeSystemNotifications } from '../storage/system-notifications';
import { emitLocalChange } from '../storage/changes';
import type { Revoked } from './revoked';

async function dropCachedFiles(files: readonly string[]): Promise<void> {
  if (files.length === 0) return;
  const paths = files.map((sha) => attachmentPath(sha));
  const fromCaches = async () => {
    if (typeof caches === 'undefined') return;
    for (const name of [ATTACHMENT_CACHE, SAVED_ATTACHMENT_CACHE]) {
      if (!(await caches.has(name))) continue;
      const cache = await caches.open(name);
      await Promise.all(paths.map((path) => cache.delete(path, { ignoreSearch: true })));
    }
  };
  // The service worker's record of when each was last used names it too; neither waits on the other.
  await Promise.all([fromCaches(), dropExpiryRecords(ATTACHMENT_CACHE, paths).catch(() => undefined)]);
}

/** Takes the revoked posts and files out of every copy outside IndexedDB. */
export async function forgetRevoked(revoked: Revoked): Promise<void> {
  const snapshots = revoked.posts.length > 0 ? [FORUM_SNAPSHOT_URL, ...revoked.posts.map((id) => `${POST_SNAPSHOT_PREFIX}${id}`)] : [];
  if (revoked.posts.length > 0) emitLocalChange('revoked');
  await Promise.all([
    Promise.all(snapshots.map((url) => dropSnapshot(url))).catch(() => undefined),
    dropCachedFiles(revoked.files).catch(() => undefined),
    closeSystemNotifications(revoked.posts).catch(() => undefined),
  ]);
}
