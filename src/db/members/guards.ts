// Who may call a data operation. Checked inside src/db, so calling a function from the console
// as a member fails just as the UI would. The role is the one readStoredSession settles: on a
// local-only device derived from the email (a stored role counts for nothing), on a connected one
// the server's.

import { DataError } from '../storage/errors';
import { readStoredSession } from './session';
import type { Session } from '../types';

/** The signed-in session, or the `not_signed_in` error. */
export function requireSession(): Session {
  const session = readStoredSession();
  if (!session) throw new DataError('not_signed_in');
  return session;
}

/** The signed-in admin's session, or the `not_signed_in` / `admins_only` error. */
export function requireAdmin(): Session {
  const session = requireSession();
  if (session.role !== 'admin') throw new DataError('admins_only');
  return session;
}
