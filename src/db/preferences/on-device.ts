// What a preference change does on this device, without the replay: the one place a member's name
// changes here (renameOnDevice, for a rename made here and one pulled from another device), and the
// page following a committed change (followPreferences). The operations' runner imports this alone,
// so running a like does not load the replay's in-memory store (pulled.ts, connected mode).

import Dexie from 'dexie';
import { db } from '../storage/schema';
import { nextRev } from '../storage/revisions';
import { writeThemeCookie } from './theme-cookie';
import { readStoredSession, saveSession } from '../members/session';
import type { Theme } from '../../shared/theme';

/** What a pulled or refused preference changed, for the page to follow once the transaction committed. */
export interface PreferenceEffects {
  email: string;
  theme?: Theme;
  name?: string;
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

/** Follows a preference change on this page once committed: the cookie and the signed-in user, when they are this member. */
export function followPreferences(effects: PreferenceEffects | undefined): void {
  const session = readStoredSession();
  if (!effects || session?.email !== effects.email) return;
  if (effects.theme !== undefined) writeThemeCookie(effects.theme);
  if (effects.name !== undefined && effects.name !== session.name) saveSession({ ...session, name: effects.name });
}
