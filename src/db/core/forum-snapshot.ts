// The forum's first-page snapshot: the rendered HTML of /forum's first page in Cache Storage, so
// the next visit paints it before the JavaScript boots. src/boot/forum-snapshot.ts shows it only
// while the cookie holds the token it was stored with (the cookie goes at every sign-in and
// sign-out, synchronously, in every tab of this build) and only with the same stylesheet.

import { FORUM_SNAPSHOT_CACHE, FORUM_SNAPSHOT_COOKIE, FORUM_SNAPSHOT_URL } from '../contracts';

export interface ForumSnapshot {
  /** The normalized email of the member it was taken for (checked by the app once it has booted). */
  owner: string;
  /** The random token the cookie must hold for the snapshot to be painted. */
  token: string;
  /** The stylesheet it was rendered with (another build's markup is not shown). */
  css: string;
  html: string;
}

const available = () => typeof caches !== 'undefined';
const hasCookies = () => typeof document !== 'undefined';
let generation = 0;

/** The token in the cookie, if any. */
export function snapshotCookie(): string | undefined {
  if (!hasCookies()) return undefined;
  const match = new RegExp(`(?:^|; )${FORUM_SNAPSHOT_COOKIE}=([0-9a-f]{32})(?:;|$)`).exec(document.cookie);
  return match?.[1];
}

function setSnapshotCookie(token: string | null): void {
  if (!hasCookies()) return;
  const secure = location.protocol === 'https:' ? '; secure' : '';
  document.cookie = token
    ? `${FORUM_SNAPSHOT_COOKIE}=${token}; path=/; max-age=2592000; samesite=strict${secure}`
    : `${FORUM_SNAPSHOT_COOKIE}=; path=/; max-age=0; samesite=strict${secure}`;
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Stores the snapshot (with the cookie's token, or a new one), unless a sign-in or sign-out
 * happened since `taken` (see snapshotGeneration) or, when the cookie is about to be set, the
 * signed-in member is no longer its owner (another tab signed in while this one wrote).
 */
export async function saveForumSnapshot(
  snapshot: Omit<ForumSnapshot, 'token'>,
  taken: number,
  stillOwner: () => boolean = () => true,
): Promise<void> {
  if (!available() || taken !== generation) return;
  const token = snapshotCookie() ?? newToken();
  const cache = await caches.open(FORUM_SNAPSHOT_CACHE);
  if (taken !== generation) return;
  const stored: ForumSnapshot = { ...snapshot, token };
  await cache.put(FORUM_SNAPSHOT_URL, new Response(JSON.stringify(stored), { headers: { 'content-type': 'application/json' } }));
  // A sign-in or sign-out during the write: take it away again (the cookie went with it).
  if (taken !== generation) {
    await caches.delete(FORUM_SNAPSHOT_CACHE);
    return;
  }
  // Another tab signed someone else in while this one wrote: the snapshot is not theirs.
  if (!stillOwner()) {
    clearForumSnapshot();
    return;
  }
  setSnapshotCookie(token);
}

/** The current generation: a save started in an older one is dropped. */
export function snapshotGeneration(): number {
  return generation;
}

/** Removes the snapshot (sign-in, sign-out): the cookie at once, then the cache; saves under way are dropped. */
export function clearForumSnapshot(): void {
  generation += 1;
  setSnapshotCookie(null);
  if (available()) void caches.delete(FORUM_SNAPSHOT_CACHE).catch(() => undefined);
}

/** The stored snapshot, or null. */
export async function readForumSnapshot(): Promise<ForumSnapshot | null> {
  if (!available()) return null;
  const response = await caches.match(FORUM_SNAPSHOT_URL, { cacheName: FORUM_SNAPSHOT_CACHE });
  return response ? ((await response.json()) as ForumSnapshot) : null;
}

/**
 * Once the app knows who is signed in: a snapshot taken for anyone else (the session was changed
 * by something that does not know about snapshots, such as an older build) is removed.
 */
export async function dropForeignSnapshot(email: string | undefined): Promise<void> {
  const stored = snapshotCookie() ? await readForumSnapshot().catch(() => null) : null;
  if (snapshotCookie() && (!stored || stored.owner !== email)) clearForumSnapshot();
}
