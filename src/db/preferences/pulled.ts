// A member's preferences between the server and IndexedDB (connected mode): the pulled theme and name
// are stored with this device's outstanding setTheme / rename replayed on top (what the member did
// here wins until the server has it); a refused operation puts back the server's word. Also the one
// place a member's name changes on this device (renameOnDevice), used by a rename made here and by
// one pulled from another device.

import Dexie from 'dexie';
import { db, type OutboxRow, type PreferencesRow } from '../storage/schema';
import { nextRev } from '../storage/revisions';
import { writeThemeCookie } from './theme-cookie';
import { readStoredSession, saveSession } from '../members/session';
import type { Theme } from '../../shared/theme';
import type { WirePreferences } from '../../shared/protocol';
import { NO_POST_ID } from '../ops/outbox';
import { isOutstanding, replay } from '../ops/replay';
import { MemoryStore, type MemoryPreferences } from '../ops/memory-store';

/** The member's queued `setTheme` / `rename` operations, oldest first. */
async function preferenceOperations(email: string): Promise<OutboxRow[]> {
  const rows = await db.outbox.where('postId').equals(NO_POST_ID).sortBy('seq');
  return rows.filter((row) => row.email === email && (row.op.type === 'setTheme' || row.op.type === 'rename'));
}

/** What a pulled or refused preference changed, for the page to follow once the transaction committed. */
export interface PreferenceEffects {
  email: string;
  theme?: Theme;
  name?: string;
}

/**
 * The theme and name a member shows: `server` (the server's word, or what the first outstanding
 * operation replaced when the server never said) with their outstanding setTheme / rename replayed on top.
 */
async function shownPreferences(email: string, server: MemoryPreferences, seq: number): Promise<MemoryPreferences> {
  const outstanding = (await preferenceOperations(email)).filter((row) => isOutstanding(row, { seq }));
  if (outstanding.length === 0) return server;
  const store = new MemoryStore();
  store.preferences.set(email, server);
  await replay(store, outstanding);
  return store.preferences.get(email)!;
}

/** Shows the member's theme and name on this device as `shown`; returns what changed (undefined: nothing). */
async function showPreferences(
  email: string,
  shown: MemoryPreferences,
  sync: PreferencesRow['sync'],
): Promise<PreferenceEffects | undefined> {
  const stored = await db.preferences.get(email);
  await db.preferences.put({ email, theme: shown.theme, ...(sync ? { sync } : {}) });
  const effects: PreferenceEffects = { email };
  if (shown.theme !== stored?.theme) effects.theme = shown.theme;
  // The signed-in user follows too (followPreferences), even when no row here carries the name.
  const session = readStoredSession();
  const sessionName = session?.email === email ? session.name : undefined;
  const renamed = shown.name ? await renameOnDevice(email, shown.name) : 0;
  if (shown.name && (renamed > 0 || shown.name !== stored?.sync?.name || (sessionName !== undefined && shown.name !== sessionName))) {
    effects.name = shown.name;
  }
  return effects.theme === undefined && effects.name === undefined ? undefined : effects;
}

/**
 * Stores this member's pulled preferences under their outstanding setTheme / rename; returns what
 * changed on this device (undefined: nothing). The theme goes to the preferences row, the name to
 * the account and the member's posts and replies here (renameOnDevice).
 */
export async function storeServerPreferences(wire: WirePreferences | null, owner: string): Promise<PreferenceEffects | undefined> {
  if (!wire) return undefined;
  const stored = await db.preferences.get(owner);
  if (stored?.sync && stored.sync.seq >= wire.seq) return undefined;
  const shown = await shownPreferences(owner, { theme: wire.theme, name: wire.name }, wire.seq);
  return showPreferences(owner, shown, { seq: wire.seq, theme: wire.theme, name: wire.name, silenced: wire.silenced });
}

/**
 * Gives the member's name to their account row, their posts and their replies on this device
 * (posts get a new change number, so the search index reads the new author); returns how many rows
 * changed. Call inside a readwrite transaction on accounts, posts, replies and meta.
 */
export async function renameOnDevice(email: string, name: string): Promise<number> {
  let changed = 0;
  const account = await db.accounts.get(email);
  if (account && account.name !== name) {
    await db.accounts.update(email, { name });
    changed += 1;
  }
  const posts = await db.posts
    .where('[authorEmail+id]')
    .between([email, Dexie.minKey], [email, Dexie.maxKey])
    .filter((post) => post.author !== name)
    .toArray();
  let rev = await nextRev();
  for (const post of posts) await db.posts.update(post.id, { author: name, rev: rev++ });
  changed += posts.length;
  changed += await db.replies.filter((reply) => reply.authorEmail === email && reply.author !== name).modify({ author: name });
  // The signed-in user may be told before the rows change for a tab that reads it meanwhile: harmless.
  return changed;
}

/**
 * Shows the member's theme and name as the server's word (or, when the server never said, what
 * `fallback` holds: what a refused operation replaced) with their operations still outstanding on
 * top, after some settled or were refused; returns what changed (undefined: nothing).
 */
export async function refreshPreferences(email: string, fallback?: OutboxRow['previous']): Promise<PreferenceEffects | undefined> {
  const stored = await db.preferences.get(email);
  const server = stored?.sync
    ? { theme: stored.sync.theme, name: stored.sync.name }
    : { theme: fallback?.theme ?? stored?.theme ?? 'system', name: fallback?.name ?? '' };
  const shown = await shownPreferences(email, server, stored?.sync?.seq ?? 0);
  return showPreferences(email, shown, stored?.sync);
}

/** Follows a preference change on this page once committed: the cookie and the signed-in user, when they are this member. */
export function followPreferences(effects: PreferenceEffects | undefined): void {
  const session = readStoredSession();
  if (!effects || session?.email !== effects.email) return;
  if (effects.theme !== undefined) writeThemeCookie(effects.theme);
  if (effects.name !== undefined && effects.name !== session.name) saveSession({ ...session, name: effects.name });
}

/** The name of the member's newest rename the server has not confirmed by a pull yet (undefined: none). */
export async function pendingName(email: string): Promise<string | undefined> {
  const renames = (await preferenceOperations(email)).filter((row) => row.op.type === 'rename');
  const last = renames[renames.length - 1];
  return last?.op.type === 'rename' && typeof last.op.name === 'string' ? last.op.name : undefined;
}
