// The forum's first-page snapshot: the rendered HTML of /forum's first page in Cache Storage, so
// the next visit paints it before the JavaScript boots (index.html's inline script shows it only
// to the same signed-in member, with the same stylesheet). Removed at every sign-in and sign-out.

import { FORUM_SNAPSHOT_CACHE, FORUM_SNAPSHOT_URL } from '../contracts';

export interface ForumSnapshot {
  /** The normalized email of the member it was taken for. */
  owner: string;
  /** The stylesheet it was rendered with (another build's markup is not shown). */
  css: string;
  html: string;
}

const available = () => typeof caches !== 'undefined';
let generation = 0;

/** Stores the snapshot, unless a sign-in or sign-out happened since `taken` (see snapshotGeneration). */
export async function saveForumSnapshot(snapshot: ForumSnapshot, taken: number): Promise<void> {
  if (!available() || taken !== generation) return;
  const cache = await caches.open(FORUM_SNAPSHOT_CACHE);
  if (taken !== generation) return;
  await cache.put(FORUM_SNAPSHOT_URL, new Response(JSON.stringify(snapshot), { headers: { 'content-type': 'application/json' } }));
  // A sign-out during the write: take it away again.
  if (taken !== generation) await caches.delete(FORUM_SNAPSHOT_CACHE);
}

/** The current generation: a save started in an older one is dropped. */
export function snapshotGeneration(): number {
  return generation;
}

/** Removes the snapshot (sign-in, sign-out); saves already under way are dropped. */
export function clearForumSnapshot(): void {
  generation += 1;
  if (available()) void caches.delete(FORUM_SNAPSHOT_CACHE).catch(() => undefined);
}

/** The stored snapshot, or null (for tests and support). */
export async function readForumSnapshot(): Promise<ForumSnapshot | null> {
  if (!available()) return null;
  const response = await caches.match(FORUM_SNAPSHOT_URL, { cacheName: FORUM_SNAPSHOT_CACHE });
  return response ? ((await response.json()) as ForumSnapshot) : null;
}
