// The files of the member's saved posts, and of those posts' visible replies, are kept in a cache
// of their own (SAVED_ATTACHMENT_CACHE) that the service worker reads first and never evicts: a
// saved post opens offline with its images, however many other files went through the bounded
// cache of recent attachments since (issue 42).
import { db } from '../storage/schema';
import { savedPostIds } from './saved';

/** Where the server serves a file (the service worker's route and both caches' keys). */
export const attachmentPath = (sha256: string): string => `/api/attachments/${sha256}`;

/** The part of Cache Storage's cache this needs (a fake one in the unit tests). */
export interface FileCache {
  keys(): Promise<readonly Request[]>;
  add(url: string): Promise<void>;
  delete(url: string): Promise<boolean>;
}

/** The SHA-256 of every file the member's saved posts on this device carry, their visible replies' included. */
export async function savedFiles(email: string): Promise<Set<string>> {
  const ids = await savedPostIds(email);
  const files = new Set<string>();
  for (const post of await db.posts.bulkGet(ids)) for (const file of post?.attachments ?? []) files.add(file.sha256);
  const replies = await db.replies
    .where('[postId+state]')
    .anyOf(ids.map((id) => [id, 'visible']))
    .toArray();
  for (const reply of replies) for (const file of reply.attachments ?? []) files.add(file.sha256);
  return files;
}

/**
 * Makes `cache` hold the saved files and no others: a file no saved post names goes, a missing one
 * is fetched (one the server does not serve yet, or a failed fetch, is tried again next time).
 * Returns how many were fetched.
 */
export async function keepSavedFiles(email: string, cache: FileCache): Promise<number> {
  const wanted = await savedFiles(email);
  const held = new Set((await cache.keys()).map((request) => new URL(request.url).pathname.split('/').pop() ?? ''));
  for (const sha of held) if (!wanted.has(sha)) await cache.delete(attachmentPath(sha));
  let fetched = 0;
  for (const sha of wanted) {
    if (held.has(sha)) continue;
    try {
      await cache.add(attachmentPath(sha));
      fetched += 1;
    } catch {
      // Not served (yet), or the network went: the next change tries again.
    }
  }
  return fetched;
}
