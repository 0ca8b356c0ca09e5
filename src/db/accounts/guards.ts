// Who may call a data operation. Checked inside src/db, so calling a function from the console
// as a member fails just as the UI would. The admin role is derived from the stored email,
// never read from the stored role.

import { NotAuthorizedError, NotSignedInError } from '../core/errors';
import { readStoredSession } from './session';
import { roleFor } from './session-rules';
import type { Session } from '../types';

/** The signed-in session, or NotSignedInError. */
export function requireSession(): Session {
  const session = readStoredSession();
  if (!session) throw new NotSignedInError();
  return session;
}

/** The signed-in admin's session, or NotSignedInError / NotAuthorizedError. */
export function requireAdmin(): Session {
  const session = requireSession();
  if (roleFor(session.email) !== 'admin') throw new NotAuthorizedError();
  return session;
}
