// The pure rules of a session: who is admin, the name shown for an email that never signed up,
// and how a stored value is read. No storage here, so session.ts and session-copy.ts both use it
// without importing each other. Who decides the role depends on the device's mode (RoleAuthority).

import { DEFAULT_ADMIN_EMAIL, nameFromEmail, normalizeEmail } from '../../shared/post-rules';

export { nameFromEmail };
import type { Role, Session } from '../types';

/**
 * Whose word the role is. `device` (local-only): the one admin address, whatever the stored value
 * says. `server` (connected): the role the server answered at sign-in, as stored (the server
 * enforces it on every request anyway). `unsettled`: the mode is not known yet; the device's rule
 * applies meanwhile, and the admin area waits.
 */
export type RoleAuthority = 'device' | 'server' | 'unsettled';

/** `admin` exactly when the normalized email is the one admin address (the local-only rule). */
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

/**
 * Parses a stored value; anything that is not a session with an email reads as signed out. The
 * stored role counts only when the server is the authority.
 */
export function parseSession(raw: string | null | undefined, authority: RoleAuthority = 'device'): Session | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return null;
    const { email, name, role } = value as { email?: unknown; name?: unknown; role?: unknown };
    if (typeof email !== 'string' || !email.trim()) return null;
    const session = makeSession(email, typeof name === 'string' ? name : '');
    return authority === 'server' ? { ...session, role: role === 'admin' ? 'admin' : 'user' } : session;
  } catch {
    return null;
  }
}
