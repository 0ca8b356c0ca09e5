// Applying pulled changes (connected mode): pages of GET /api/changes are stored in one readwrite
// transaction together with their cursor (one page, or the few a first sync fetched meanwhile), so
// a crash between batches loses nothing and the next pull resumes after the last batch that committed.

import { db } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { countChange } from '../storage/revisions';
import type { PullResponse, WirePost } from '../../shared/protocol';
import { removeServerPosts, storeServerPosts } from '../posts/pulled';
import { storeServerReplies } from '../replies/pulled';
import { SYNC_META, readCursor, readOwner } from '../ops/sync-meta';
import { storeServerFlags } from '../flags/pulled';
import { dropUnreadableReplyNotes, storeServerNotifications } from '../notifications/pulled';
import { followPreferences, storeServerPreferences, type PreferenceEffects } from '../preferences/pulled';
import { storeServerSaved } from '../saved/pulled';
import { storeServerFollows, storeServerReads } from '../follows/pulled';
import { storeServerMembers } from '../members/pulled';
import { storeServerCategories, storeServerGroupMembers, storeServerGroups } from '../groups/pulled';
import { storeServerConversations, storeServerMessages } from '../messages/pulled';
import { filesLeaving, heldRemoved, removeHiddenCategoryPosts, type Revoked } from './revoked';
import { forgetRevoked } from './forget-revoked';
import { OP_TABLES, SERVER_POST_TABLES } from '../ops/op-tables';
import { rebase } from './rebase';
import { META_KEYS } from '../contracts';

/** The Free up space marker's states (META_KEYS.holdsPart); `window`: a new device's window (issue 44, window.ts). */
export type HoldsPart = 'freed' | 'refetch' | 'refetching' | 'window';

/**
 * Follows a pull from the start: while one runs, what it stores arrives "long ago" (arrivedAt 0,
 * never new); a Download the whole forum is done once its pull from the start has ended. `from`
 * is the cursor the page was asked from. Returns the arrival time for rows first stored now.
 */
async function followFullPull(page: PullResponse, from: number, now: number): Promise<number> {
  const full = from === 0 || (await db.meta.get(META_KEYS.syncFullPull)) !== undefined;
  if (from === 0 && page.more) await db.meta.put({ key: META_KEYS.syncFullPull, value: now });
  if (!page.more) await db.meta.delete(META_KEYS.syncFullPull);
  const part = (await db.meta.get(META_KEYS.holdsPart))?.value as HoldsPart | undefined;
  // Any pull from the start brings back what Free up space removed (a member switch's too), but a
  // window's: its pull from the start carries only what changed since its pages.
  const windowed = (await db.meta.get(META_KEYS.windowHead)) !== undefined;
  if (windowed) {
    if (!page.more) await db.meta.delete(META_KEYS.windowHead);
  } else if (part !== undefined && from === 0) {
    if (page.more) await db.meta.put({ key: META_KEYS.holdsPart, value: 'refetching' });
    else await db.meta.delete(META_KEYS.holdsPart);
  } else if (part === 'refetching' && !page.more) await db.meta.delete(META_KEYS.holdsPart);
  return full ? 0 : now;
}

/** One change of the member's preferences for the page to follow, from several (the last word on each wins). */
function mergeEffects(owner: string, list: readonly (PreferenceEffects | undefined)[]): PreferenceEffects | undefined {
  const merged: PreferenceEffects = { email: owner };
  for (const effects of list) if (effects) Object.assign(merged, effects);
  return merged.theme === undefined && merged.name === undefined ? undefined : merged;
}

/**
 * Stores one page and its cursor, inside the caller's transaction; a page at or below the stored
 * cursor changes nothing. Operations acknowledged at or below the cursor are now part of the
 * server state. The page's removed posts leave the device with their replies; its notifications
 * (the member's), flags and saved posts are upserted, and its preferences (the member's theme and
 * name) returned to be applied once the transaction has committed.
 */
async function storePage(
  page: PullResponse,
  owner: string,
  from: number | undefined,
): Promise<{ changed: number; effects?: PreferenceEffects; revoked?: Revoked }> {
  const cursor = await readCursor();
  const empty =
    [
      page.posts,
      page.replies,
      page.removed,
      page.notifications,
      page.flags,
      page.saved,
      page.members,
      page.groups,
      page.groupMembers,
      page.categories,
      page.conversations,
      page.messages,
      page.follows,
      page.reads,
    ].every((list) => list.length === 0) && page.preferences === null;
  if (page.cursor < cursor && empty) return { changed: 0 };
  // Asked from a cursor this device has gone back from since (a member switch, Download the
  // whole forum): its changes are stored, but the cursor stays, so the pull from the start runs.
  const stale = from !== undefined && from > cursor;
  const arrivedAt = stale ? Date.now() : await followFullPull(page, from ?? cursor, Date.now());
  // Posts first: a reply's post is then on the device when the reply is counted. Removed posts
  // last: a post deleted in the page's range is gone whatever else the page says of it.
  const hidden: string[] = [];
  const leftFiles: string[] = [];
  // The posts its tombstones take off this device, and their files: their copies outside IndexedDB go too.
  const tombstoned = await heldRemoved(page.removed.map((removed) => removed.id));
  // So do the files its posts and replies no longer carry for this member (hidden, deleted, edited off).
  const leaving = await filesLeaving(page.posts, page.replies);
  const stored =
    (await storeServerPosts(page.posts, arrivedAt)) +
    (await storeServerReplies(page.replies, arrivedAt)) +
    (await removeServerPosts(page.removed.map((removed) => removed.id))) +
    (await storeServerNotifications(page.notifications, owner)) +
    (await storeServerFlags(page.flags)) +
    (await storeServerSaved(page.saved, owner)) +
    // After the replies: a read position is counted over the replies the page brought.
    (await storeServerFollows(page.follows, owner)) +
    (await storeServerReads(page.reads, owner)) +
    // Conversations before their messages: a message is kept only in a conversation held here.
    (await storeServerConversations(page.conversations, owner, leftFiles)) +
    (await storeServerMessages(page.messages)) +
    // Members last: a renamed member's rows in this page take the name too.
    (await storeServerMembers(page.members)) +
    (await storeServerGroups(page.groups)) +
    (await storeServerGroupMembers(page.groupMembers)) +
    (await storeServerCategories(page.categories, hidden));
  // A deleted reply takes the notifications about it (the server sends them no more).
  await dropUnreadableReplyNotes(page.replies, owner);
  // A category the member may no longer see takes its posts with it in this transaction: no screen
  // ever reads it hidden with its posts still there. Before the outbox settles below: a queued
  // reply to one of them becomes a kept draft there.
  const removed = await removeHiddenCategoryPosts(hidden, owner);
  // The files of conversations the member left leave the attachment caches with those posts' files.
  const revoked: Revoked = {
    posts: [...removed.posts, ...tombstoned.posts],
    files: [...removed.files, ...leftFiles, ...tombstoned.files, ...leaving],
  };
  const pulled = await storeServerPreferences(page.preferences, owner);
  // The operations this page holds (acknowledged at or below its cursor) leave the outbox: the rows
  // they touched show the server's word now, with what is still outstanding on top.
  const settled = await db.outbox.filter((row) => row.ackCursor !== undefined && row.ackCursor <= page.cursor).toArray();
  await db.outbox.bulkDelete(settled.map((row) => row.seq!));
  const rebased = await rebase(settled);
  const effects = mergeEffects(owner, [pulled, ...rebased]);
  if (!stale) await db.meta.put({ key: SYNC_META.cursor, value: Math.max(cursor, page.cursor) });
  await db.meta.put({ key: SYNC_META.owner, value: owner });
  const changed = stored + settled.length + revoked.posts.length;
  if (changed > 0 || effects) await countChange();
  return { changed: changed + (effects ? 1 : 0), effects, revoked };
}

/**
 * Stores pages of GET /api/changes, in order, in one readwrite transaction with the cursor of
 * each (see storePage): a crash loses none of them or all, and the next pull resumes after the
 * last batch that committed. `from` is the cursor the first page was asked from; each next page
 * was asked from the one before. Other tabs and live queries hear of the batch once, after it
 * commits: a first sync stores its pages a few at a time, so that the readers between two
 * transactions (the forum's list, its counts) run once per batch instead of once per page.
 */
export async function applyPullPages(pages: readonly PullResponse[], owner: string, from?: number): Promise<{ changed: number }> {
  const effects: PreferenceEffects[] = [];
  const revoked: Revoked = { posts: [], files: [] };
  const changed = await db.transaction('rw', OP_TABLES(), async () => {
    // Asked for another member (the device switched members while the page was on its way): what
    // it holds may be theirs alone (an admin's view of pending posts), so none of it is stored.
    const holder = await readOwner();
    if (holder !== undefined && holder !== owner) return 0;
    let total = 0;
    let asked = from;
    for (const page of pages) {
      const stored = await storePage(page, owner, asked);
      total += stored.changed;
      if (stored.effects) effects.push(stored.effects);
      if (stored.revoked) {
        revoked.posts.push(...stored.revoked.posts);
        revoked.files.push(...stored.revoked.files);
      }
      asked = page.cursor;
    }
    return total;
  });
  for (const effect of effects) followPreferences(effect);
  if (changed > 0) emitLocalChange('synced');
  // Committed: the copies outside IndexedDB (the `posts` copy, snapshots, cached files) lose them too.
  if (revoked.posts.length > 0 || revoked.files.length > 0) await forgetRevoked(revoked);
  return { changed };
}

/** Stores one page of GET /api/changes and its cursor atomically (applyPullPages with one page). */
export function applyPullPage(page: PullResponse, owner: string, from?: number): Promise<{ changed: number }> {
  return applyPullPages([page], owner, from);
}

/**
 * Stores the posts a server search found like pulled posts (newer versions win, this device's
 * outstanding operations on top) without moving the pull cursor. They arrive "long ago" (arrivedAt
 * 0): a post found by a search is not news. Returns how many rows changed.
 */
export async function storeSearchedPosts(posts: readonly WirePost[]): Promise<number> {
  const changed = await db.transaction('rw', SERVER_POST_TABLES(), async () => {
    const stored = await storeServerPosts(posts, 0);
    if (stored > 0) await countChange();
    return stored;
  });
  if (changed > 0) emitLocalChange('synced');
  return changed;
}
