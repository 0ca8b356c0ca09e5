// The pure rules of a session: who is admin, the name shown for an email that never signed up,
// and how a stored value is read. No storage here, so session.ts and session-copy.ts both use it
// without importing each other.

import { DEFAULT_ADMIN_EMAIL, nameFromEmail, normalizeEmail } from '../../shared/post-rules';

export { nameFromEmail };
import type { Role, Session } from '../types';

/** `admin` exactly when the normalized email is the one admin address. */
export function roleFor(email: string): Role {
  return normalizeEmail(email) === DEFAULT_ADMIN_EMAIL ? 'admin' : 'user';
}

/** Builds the session for an email; the role is always derived, never taken from input. */
export function makeSession(email: string, name: string): Session {
  const normalized = normalizeEmail(email);
  const trimmedName = name.trim();
  return {
    email: normalized,
    name: trimmedName || nameFromEmail(normalized),
    role: roleFor(normalized),
  };
}

/** Parses a stored value; anything that is not a session with an email reads as signed out. */
export function parseSession(raw: string | null | undefined): Session | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return null;
    const { email, name } = value as { email?: unknown; name?: unknown };
    if (typeof email !== 'string' || !email.trim()) return null;
    return makeSession(email, typeof name === 'string' ? name : '');
  } catch {
    return null;
  }
}
