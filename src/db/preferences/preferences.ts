// A member's theme and display name: the operations setTheme and rename (src/shared/ops, run here by
// ops/run.ts). The theme is a row per member on this device plus the theme cookie the boot script
// paints with; the name lives on the account, the signed-in user and the member's posts and replies
// here. A change pulled from another device is applied by preferences/pulled.ts.

import { db } from '../storage/schema';
import { DataError } from '../storage/errors';
import { writeThemeCookie } from './theme-cookie';
import { requireSession } from '../members/guards';
import { readStoredSession } from '../members/session';
import { isTheme, type Theme } from '../../shared/theme';
import { normalizeEmail } from '../../shared/post-rules';
import { isSilencedAt } from '../../shared/moderation';
import { runOperation } from '../ops/run-later';
import { nameDraftMetaKey } from '../contracts';

/** The session of `email` (the only member whose preferences this device may change), or `not_signed_in`. */
function sessionOf(email: string) {
  const session = requireSession();
  if (session.email !== normalizeEmail(email)) throw new DataError('not_signed_in');
  return session;
}

/** The member's theme on this device: 'system' when never set. */
export async function readTheme(email: string): Promise<Theme> {
  const row = await db.preferences.get(normalizeEmail(email));
  return row && isTheme(row.theme) ? row.theme : 'system';
}

/** True when the server says the staff silenced `email` (connected mode; their preferences, as last pulled) and the silence has not ended. */
export async function isSilenced(email: string, now = Date.now()): Promise<boolean> {
  return isSilencedAt((await db.preferences.get(normalizeEmail(email)))?.sync, now);
}

/** The staff's silence of `email` as their banner tells it (why, until when), or null when they may write. */
export async function readSilence(email: string, now = Date.now()): Promise<{ reason: string | null; until: number | null } | null> {
  const sync = (await db.preferences.get(normalizeEmail(email)))?.sync;
  return isSilencedAt(sync, now) ? { reason: sync?.silenceReason ?? null, until: sync?.silencedUntil ?? null } : null;
}

/** Stores the signed-in member's theme (the `setTheme` operation), and writes THEME_COOKIE once it is stored. */
export async function setTheme(email: string, theme: Theme): Promise<void> {
  sessionOf(email);
  await runOperation('setTheme', { theme });
}

/** Writes THEME_COOKIE (path=/, 400 days, SameSite=Lax), or removes it for null (sign-out). */
export function applyThemeCookie(theme: Theme | null): void {
  writeThemeCookie(theme);
}

/** Writes the cookie of the member who just signed in on this device from their stored theme. */
export async function applyStoredTheme(email: string): Promise<Theme> {
  const theme = await readTheme(email);
  if (readStoredSession()?.email === normalizeEmail(email)) applyThemeCookie(theme);
  return theme;
}

/**
 * Renames the signed-in member (the `rename` operation): validateName's sentence for a bad name
 * (`invalid`); then the account row, their posts and replies here (and the `posts` mirror, which
 * follows the change) and the signed-in user in every tab.
 */
export async function renameMember(email: string, name: string): Promise<void> {
  sessionOf(email);
  await runOperation('rename', { name });
}

/** A display name the server refused (another member has it) and its sentence: kept so the member need not type it again. */
export interface RefusedName {
  name: string;
  reason: string;
}

/** The member's refused display name, once: Edit Profile opens with it, and it is forgotten. */
export async function takeRefusedName(email: string): Promise<RefusedName | undefined> {
  const key = nameDraftMetaKey(email);
  const kept = (await db.meta.get(key))?.value as RefusedName | undefined;
  if (kept) await db.meta.delete(key);
  return kept;
}
