// A member's theme and display name (comfort). The theme is a row per member on this device plus
// the theme cookie the boot script paints with; the name lives on the account, the signed-in user
// and the member's posts and replies here. Connected: each change queues `setTheme` / `rename` in
// the same transaction; a pulled change from another device is applied by sync/server-comfort.ts.

import { db } from '../core/schema';
import { DataError, invalidInput, withDataErrors } from '../core/errors';
import { emitLocalChange } from '../core/changes';
import { countChange } from '../core/revisions';
import { writeThemeCookie } from '../core/theme-cookie';
import { requireSession } from '../accounts/guards';
import { readStoredSession } from '../accounts/session';
import { isTheme, type Theme } from '../../shared/comfort';
import { normalizeEmail } from '../../shared/post-rules';
import { validateName } from '../../shared/validation';
import { NO_POST_ID, queueOperation } from '../sync/outbox';
import { COMFORT_TABLES, followPreferences, renameOnDevice } from '../sync/server-comfort';

const run = withDataErrors;

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

/** Stores the signed-in member's theme, writes THEME_COOKIE and (connected) queues `setTheme`. */
export async function setTheme(email: string, theme: Theme): Promise<void> {
  if (!isTheme(theme)) throw new DataError('invalid', { message: 'Choose System, Light or Dark.' });
  const session = sessionOf(email);
  const changed = await run(() =>
    db.transaction('rw', [db.preferences, db.meta, db.outbox], async () => {
      const stored = await db.preferences.get(session.email);
      const previous = stored?.theme ?? 'system';
      if (previous === theme && stored) return false;
      await db.preferences.put({ ...(stored ?? {}), email: session.email, theme });
      await queueOperation({ type: 'setTheme', theme }, NO_POST_ID, session, { previous: { theme: previous } });
      return true;
    }),
  );
  applyThemeCookie(theme);
  if (changed) emitLocalChange('preferences');
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
 * Renames the signed-in member: validateName's sentence for a bad name (`invalid`); then the
 * account row, their posts and replies here (and the `posts` mirror, which follows the change) and
 * the signed-in user in every tab. Connected: queues `rename`.
 */
export async function renameMember(email: string, name: string): Promise<void> {
  const session = sessionOf(email);
  const problem = validateName(name);
  if (problem) throw invalidInput(problem);
  const trimmed = name.trim();
  await run(() =>
    db.transaction('rw', COMFORT_TABLES(), async () => {
      const previous = session.name;
      await renameOnDevice(session.email, trimmed);
      await countChange();
      if (previous !== trimmed)
        await queueOperation({ type: 'rename', name: trimmed }, NO_POST_ID, session, { previous: { name: previous } });
    }),
  );
  followPreferences({ email: session.email, name: trimmed });
  emitLocalChange('renamed');
}
