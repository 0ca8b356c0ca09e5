// A member's preferences between the server and IndexedDB (connected mode): the pulled theme and name
// are stored with this device's outstanding setTheme / rename replayed on top (what the member did
// here wins until the server has it); a refused operation puts back the server's word. The one place
// a member's name changes on this device, renameOnDevice, is in on-device.ts.

import { db, type OutboxRow, type PreferencesRow } from '../storage/schema';
import { readStoredSession } from '../members/session';
import type { WirePreferences } from '../../shared/protocol';
import { NO_POST_ID } from '../ops/outbox';
import { isOutstanding, replay } from '../ops/replay';
import { definitionOf } from '../../shared/ops/registry';
import { MemoryStore, type MemoryPreferences } from '../ops/memory-store';
import { renameOnDevice, type PreferenceEffects } from './on-device';

export { followPreferences, renameOnDevice, type PreferenceEffects } from './on-device';

/** The member's queued `setTheme` / `rename` operations, oldest first. */
async function preferenceOperations(email: string): Promise<OutboxRow[]> {
  const rows = await db.outbox.where('postId').equals(NO_POST_ID).sortBy('seq');
  return rows.filter((row) => row.email === email && definitionOf(row.op.type).touches === 'preferences');
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
  await db.preferences.put({
    email,
    theme: shown.theme,
    ...(shown.autoWatch !== undefined ? { autoWatch: shown.autoWatch } : {}),
    ...(sync ? { sync } : {}),
  });
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
  const shown = await shownPreferences(owner, { theme: wire.theme, name: wire.name, autoWatch: wire.autoWatch }, wire.seq);
  return showPreferences(owner, shown, {
    seq: wire.seq,
    theme: wire.theme,
    name: wire.name,
    silenced: wire.silenced,
    silenceReason: wire.silenceReason,
    silencedUntil: wire.silencedUntil,
    autoWatch: wire.autoWatch,
  });
}

/**
 * Shows the member's theme and name as the server's word (or, when the server never said, what
 * `fallback` holds: what a refused operation replaced) with their operations still outstanding on
 * top, after some settled or were refused; returns what changed (undefined: nothing).
 */
export async function refreshPreferences(email: string, fallback?: OutboxRow['previous']): Promise<PreferenceEffects | undefined> {
  const stored = await db.preferences.get(email);
  const server: MemoryPreferences = stored?.sync
    ? {
        theme: stored.sync.theme,
        name: stored.sync.name,
        ...(stored.sync.autoWatch !== undefined ? { autoWatch: stored.sync.autoWatch } : {}),
      }
    : { theme: fallback?.theme ?? stored?.theme ?? 'system', name: fallback?.name ?? '' };
  const shown = await shownPreferences(email, server, stored?.sync?.seq ?? 0);
  return showPreferences(email, shown, stored?.sync);
}

/** The name of the member's newest rename the server has not confirmed by a pull yet (undefined: none). */
export async function pendingName(email: string): Promise<string | undefined> {
  // A rename is the one that carries a name.
  const names = (await preferenceOperations(email)).flatMap((row) => {
    const { name } = row.op as { name?: unknown };
    return typeof name === 'string' ? [name] : [];
  });
  return names[names.length - 1];
}
