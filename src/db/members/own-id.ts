// The signed-in member's own public id: on a connected device the id their server gave their account
// (its sign-in answer names it), so what they write here links to their page before the server
// answers; on a local-only device (or before a server named it) memberId of the email, as every
// local-only row's author key is (shared/members.ts, authorKey).

import { db } from '../storage/schema';
import { META_KEY_PREFIXES } from '../contracts';
import { memberId } from '../../shared/members';

const keyOf = (email: string) => `${META_KEY_PREFIXES.memberId}${email}`;

/** Keeps the id the server gave `email`'s account (nothing when it gave none: an older server). */
export async function rememberOwnMemberId(email: string, id: string | undefined): Promise<void> {
  if (id) await db.meta.put({ key: keyOf(email), value: id });
}

/** The public id of `email`'s account here: the server's, else memberId of the email. */
export async function ownMemberId(email: string): Promise<string> {
  const stored = (await db.meta.get(keyOf(email)))?.value;
  return typeof stored === 'string' && stored ? stored : memberId(email);
}
