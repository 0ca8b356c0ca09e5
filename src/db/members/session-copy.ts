// The IndexedDB copy of the session. localStorage stays the place the spec names; this copy lets
// a browser whose localStorage throws keep its sign-in across reloads, and records the changes
// another tab or an older build makes to `insightExchangeUser`.

import { META_KEYS } from '../contracts';
import { db } from '../storage/schema';
import { parseSession, type RoleAuthority } from './session-rules';
import type { Session } from '../types';

const SESSION_COPY_KEY = META_KEYS.sessionCopy;

/** Stores the session (or null when signed out) in the meta table. */
export async function saveSessionCopy(session: Session | null): Promise<void> {
  await db.meta.put({ key: SESSION_COPY_KEY, value: session ? JSON.stringify(session) : null });
}

/** Reads the copy; anything unreadable reads as signed out. The role follows `authority`. */
export async function readSessionCopy(authority: RoleAuthority = 'device'): Promise<Session | null> {
  const row = await db.meta.get(SESSION_COPY_KEY);
  return parseSession(typeof row?.value === 'string' ? row.value : null, authority);
}
