// The first-paint snapshots: the rendered HTML of /forum's first page, and of the first screen of
// each post page the member opened lately, in Cache Storage, so the next visit paints it before the
// JavaScript boots. src/boot/forum-snapshot.ts shows one only while the cookie holds the token it
// was stored with (the cookie goes at every sign-in and sign-out, synchronously, in every tab of
// this build) and only with the same stylesheet. All of them share the cache, the cookie and its
// token: whatever removes the forum's removes them all.

import { afterFirstFrame } from './first-frame';
import {
  ATTACHMENT_CACHE,
  SAVED_ATTACHMENT_CACHE,
  FORUM_SNAPSHOT_CACHE,
  FORUM_SNAPSHOT_COOKIE,
  FORUM_SNAPSHOT_URL,
  POST_SNAPSHOT_PREFIX,
  SNAPSHOT_ID_HEADER,
} from '../contracts';

/** The most post pages kept (the ones stored last): a few KB each. */
export const POST_SNAPSHOTS_KEPT = 30;

export interface ForumSnapshot {
  /** The normalized email of the member it was taken for (checked by the app once it has booted). */
  owner: string;
  /** The random token the cookie must hold for the snapshot to be painted. */
  token: string;
  /** The stylesheet it was rendered with (another build's markup is not shown). */
  css: string;
  /** The screen's own stylesheets it was rendered with, beyond `css` (a post page's): linked in the page's head by the service worker. */
  styles?: string[];
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

/** The SHA-256 of `text`, hex (the snapshot's SNAPSHOT_ID_HEADER). */
async function contentId(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Stores the snapshot at `url` (with the cookie's token, or a new one), unless a sign-in or sign-out
 * happened since `taken` (see snapshotGeneration), or `stillValid` says no once it is written (the
 * page it shows changed and is no longer on screen), or, when the cookie is about to be set, the
 * signed-in member is no longer its owner (another tab signed in while this one wrote). Past
 * POST_SNAPSHOTS_KEPT post pages, the oldest go.
 */
export async function saveSnapshot(
  url: string,
  snapshot: Omit<ForumSnapshot, 'token'>,
  taken: number,
  stillOwner: () => boolean = () => true,
  stillValid: () => boolean = () => true,
): Promise<void> {
  if (!available() || taken !== generation) return;
  const token = snapshotCookie() ?? newToken();
  const cache = await caches.open(FORUM_SNAPSHOT_CACHE);
  if (taken !== generation) return;
  const stored: ForumSnapshot = { ...snapshot, token };
  // Its id is its content's hash: the service worker answers the page it composed from it again for
  // as long as the same snapshot is stored (a visit that stores what it found keeps it), never after a change.
  const body = JSON.stringify(stored);
  const headers = { 'content-type': 'application/json', [SNAPSHOT_ID_HEADER]: await contentId(body) };
  if (taken !== generation) return;
  await cache.put(url, new Response(body, { headers }));
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
  if (!stillValid()) {
    await cache.delete(url);
    return;
  }
  setSnapshotCookie(token);
  if (url.startsWith(POST_SNAPSHOT_PREFIX)) await dropOldPostSnapshots(cache);
}

/** The post pages' snapshots beyond the POST_SNAPSHOTS_KEPT stored last (the cache lists them oldest first). */
async function dropOldPostSnapshots(cache: Cache): Promise<void> {
  const posts = (await cache.keys()).filter((request) => new URL(request.url).pathname.startsWith(POST_SNAPSHOT_PREFIX));
  await Promise.all(posts.slice(0, Math.max(0, posts.length - POST_SNAPSHOTS_KEPT)).map((request) => cache.delete(request)));
}

/**
 * Removes the stored snapshots but those of `keep` (the pages on screen, which store a fresh one
 * as they change); the cookie stays. Returns once they are gone.
 */
export async function dropSnapshotsBut(keep: ReadonlySet<string>): Promise<void> {
  const cache = await storedCache();
  if (!cache) return;
  const stale = (await cache.keys()).filter((request) => !keep.has(new URL(request.url).pathname));
  await Promise.all(stale.map((request) => cache.delete(request)));
}

/** Removes the snapshot stored at `url`, if any (the cookie stays). */
export async function dropSnapshot(url: string): Promise<void> {
  await (await storedCache())?.delete(url);
}

/** The snapshots' cache, or null when there is none (opening it would create it). */
async function storedCache(): Promise<Cache | null> {
  return available() && (await caches.has(FORUM_SNAPSHOT_CACHE)) ? caches.open(FORUM_SNAPSHOT_CACHE) : null;
}

/** The current generation: a save started in an older one is dropped. */
export function snapshotGeneration(): number {
  return generation;
}

/**
 * Removes the snapshot (sign-in, sign-out): the cookie at once, then the cache; saves under way are
 * dropped. The attachments the service worker kept go too: the next member fetches what they may see.
 */
export function clearForumSnapshot(): void {
  generation += 1;
  setSnapshotCookie(null);
  if (!available()) return;
  void caches.delete(FORUM_SNAPSHOT_CACHE).catch(() => undefined);
  void caches.delete(ATTACHMENT_CACHE).catch(() => undefined);
  void caches.delete(SAVED_ATTACHMENT_CACHE).catch(() => undefined);
  // Loaded when used (this module is in the first load, the records' code need not be), and not on a
  // new browser's way to the forum's first frame (it holds no records): after it.
  afterFirstFrame(
    () => void import('./cache-expiry').then(({ dropExpiryRecords }) => dropExpiryRecords(ATTACHMENT_CACHE, 'all')).catch(() => undefined),
  );
}

/** The stored snapshot, or null. */
export async function readForumSnapshot(): Promise<ForumSnapshot | null> {
  if (!available()) return null;
  const response = await caches.match(FORUM_SNAPSHOT_URL, { cacheName: FORUM_SNAPSHOT_CACHE });
  return response ? ((await response.json()) as ForumSnapshot) : null;
}

/**
 * Once the app knows who is signed in: snapshots taken for anyone else (the session was changed
 * by something that does not know about snapshots) are removed, or any at all when the cookie
 * is left with none stored. Every stored snapshot has the same owner (they go at each sign-in).
 */
export async function dropForeignSnapshot(email: string | undefined): Promise<void> {
  if (!snapshotCookie()) return;
  const stored = await anyStoredSnapshot().catch(() => null);
  if (snapshotCookie() && (!stored || stored.owner !== email)) clearForumSnapshot();
}

/** One stored snapshot (the forum's, or else the first post page's), or null. */
async function anyStoredSnapshot(): Promise<ForumSnapshot | null> {
  const forum = await readForumSnapshot();
  const cache = forum ? null : await storedCache();
  if (!cache) return forum;
  const [first] = await cache.keys();
  const response = first ? await cache.match(first) : undefined;
  return response ? ((await response.json()) as ForumSnapshot) : null;
}
