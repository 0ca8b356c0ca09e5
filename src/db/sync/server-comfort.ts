// Saved posts and preferences (comfort, protocol 5) between the server and IndexedDB: pulled rows
// are stored with this device's outstanding `save` / `setTheme` / `rename` operations on top (what
// the member did here wins until the server has it); a refused operation puts back the server's
// word. Also the one place a member's name changes on this device (renameOnDevice), used by a
// rename made here and by one pulled from another device.

import Dexie from 'dexie';
import { db, type OutboxRow, type PreferencesRow, type SavedRow } from '../core/schema';
import { nextRev } from '../core/revisions';
import { writeThemeCookie } from '../core/theme-cookie';
import { readStoredSession, saveSession } from '../accounts/session';
import type { Theme } from '../../shared/comfort';
import type { WirePreferences, WireSaved } from '../../shared/protocol';
import { NO_POST_ID } from './outbox';
import { isOutstanding } from './overlay';

/** The tables a comfort write touches (with the outbox and meta). */
export const COMFORT_TABLES = () => [db.saved, db.preferences, db.accounts, db.posts, db.replies, db.meta, db.outbox];

/** The member's queued (or applied, not yet pulled) `save` operations about one post, oldest first. */
async function saveOperations(email: string, postId: number): Promise<OutboxRow[]> {
  const rows = await db.outbox.where('postId').equals(postId).sortBy('seq');
  return rows.filter((row) => row.email === email && row.op.type === 'save');
}

/** The member's queued `setTheme` / `rename` operations, oldest first. */
async function preferenceOperations(email: string): Promise<OutboxRow[]> {
  const rows = await db.outbox.where('postId').equals(NO_POST_ID).sortBy('seq');
  return rows.filter((row) => row.email === email && (row.op.type === 'setTheme' || row.op.type === 'rename'));
}

/** A saved row as the server's word plus this device's outstanding saves (undefined: nothing to keep). */
function savedView(email: string, postId: number, sync: SavedRow['sync'], ops: readonly OutboxRow[]): SavedRow | undefined {
  let view: SavedRow | undefined = sync ? { email, postId, saved: sync.saved, at: sync.at, sync } : undefined;
  for (const row of ops) {
    if (row.op.type !== 'save' || !isOutstanding(row, sync)) continue;
    view = { email, postId, saved: row.op.saved, at: row.at ?? Date.now(), ...(sync ? { sync } : {}) };
  }
  return view;
}

/** Shows one saved row as the server's word plus the outstanding saves (after one settled or was refused). */
export async function refreshSaved(email: string, postId: number): Promise<void> {
  const stored = await db.saved.get([email, postId]);
  const view = savedView(email, postId, stored?.sync, await saveOperations(email, postId));
  if (view) await db.saved.put(view);
  else if (stored) await db.saved.delete([email, postId]);
}

/** Stores this member's pulled saved posts (`owner`: whose they are); returns how many rows changed. */
export async function storeServerSaved(wires: readonly WireSaved[], owner: string): Promise<number> {
  if (wires.length === 0) return 0;
  const stored = await db.saved.bulkGet(wires.map((wire) => [owner, wire.postId] as [string, number]));
  let changed = 0;
  for (const [index, wire] of wires.entries()) {
    const current = stored[index];
    if (current?.sync && current.sync.seq >= wire.seq) continue;
    const view = savedView(
      owner,
      wire.postId,
      { postId: wire.postId, saved: wire.saved, at: wire.at, seq: wire.seq },
      await saveOperations(owner, wire.postId),
    );
    if (view) await db.saved.put(view);
    changed += 1;
  }
  return changed;
}

/** What a pulled or refused preference changed, for the page to follow once the transaction committed. */
export interface PreferenceEffects {
  email: string;
  theme?: Theme;
  name?: string;
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
  const ops = (await preferenceOperations(owner)).filter((row) => isOutstanding(row, { seq: wire.seq }));
  const themeHere = ops.some((row) => row.op.type === 'setTheme');
  const nameHere = ops.some((row) => row.op.type === 'rename');
  const theme = themeHere ? (stored?.theme ?? wire.theme) : wire.theme;
  await db.preferences.put({ email: owner, theme, sync: { seq: wire.seq, theme: wire.theme, name: wire.name } });
  const effects: PreferenceEffects = { email: owner };
  if (theme !== stored?.theme) effects.theme = theme;
  // The signed-in user follows too (followPreferences), even when no row here carries the name.
  if (!nameHere && wire.name && ((await renameOnDevice(owner, wire.name)) > 0 || wire.name !== stored?.sync?.name))
    effects.name = wire.name;
  return effects.theme === undefined && effects.name === undefined ? undefined : effects;
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

/** A refused save: the row shows the server's word again (with any later save on top). */
export async function undoSave(row: OutboxRow): Promise<void> {
  if (row.op.type === 'save') await refreshSaved(row.email, row.op.postId);
}

/**
 * A refused setTheme or rename: the server's word comes back (or, when the server never said, what
 * the operation replaced), unless a later operation of the same kind is still on its way.
 */
export async function undoPreference(row: OutboxRow): Promise<PreferenceEffects | undefined> {
  const { op } = row;
  if (op.type !== 'setTheme' && op.type !== 'rename') return undefined;
  const later = (await preferenceOperations(row.email)).some((other) => other.seq! > row.seq! && other.op.type === op.type);
  if (later) return undefined;
  const stored: PreferencesRow | undefined = await db.preferences.get(row.email);
  if (op.type === 'setTheme') {
    const theme = stored?.sync?.theme ?? row.previous?.theme ?? 'system';
    if (stored?.theme === theme) return undefined;
    await db.preferences.put({ ...(stored ?? {}), email: row.email, theme });
    return { email: row.email, theme };
  }
  const name = stored?.sync?.name ?? row.previous?.name;
  if (!name) return undefined;
  await renameOnDevice(row.email, name);
  return { email: row.email, name };
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
