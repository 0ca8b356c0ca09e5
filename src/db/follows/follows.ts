// A member's levels on posts, categories and tags on this device (issue 62): the `follow` and
// `setAutoWatch` operations (src/shared/ops/follow.ts, run here by ops/run.ts; local-only: the row is
// all there is), and live reads of them for the screens (Dexie's live queries show a change in every tab).
// The hooks sit here with their queries (as the saved posts' readers do), for the screens to share one.
import { db, type FollowRow } from '../storage/schema';
import { runOperation } from '../ops/run-later';
import type { FollowKind, FollowLevel } from '../../shared/follows';

/** Sets the signed-in member's level on a target (the `follow` operation); a refusal is thrown as a DataError. */
export async function setFollowLevel(kind: FollowKind, target: string, level: FollowLevel): Promise<void> {
  await runOperation('follow', { kind, target, level });
}

/** Turns "Watch what I write" on or off for the signed-in member (the `setAutoWatch` operation). */
export async function setAutoWatchPreference(on: boolean): Promise<void> {
  await runOperation('setAutoWatch', { on });
}

/** The level `email` set on a target (undefined: none). */
export async function followLevelOf(email: string, kind: FollowKind, target: string): Promise<FollowLevel | undefined> {
  return (await db.follows.get([email, kind, target]))?.level;
}

/** Every level `email` set (posts, categories and tags). */
export function followsOf(email: string): Promise<FollowRow[]> {
  return db.follows.where('[email+kind+target]').between([email, '', ''], [email, '\uffff', '\uffff']).toArray();
}

/** The categories and tags `email` set a level on, Normal left out (Profile's "Following"). */
export async function topicFollowsOf(email: string): Promise<FollowRow[]> {
  const rows = await db.follows
    .where('[email+kind]')
    .anyOf([
      [email, 'category'],
      [email, 'tag'],
    ])
    .toArray();
  return rows.filter((row) => row.level !== 'normal');
}

/** Whether writing makes `email` watch what they wrote (their preference; yes unless they turned it off). */
export async function autoWatchOf(email: string): Promise<boolean> {
  return (await db.preferences.get(email))?.autoWatch ?? true;
}
