// The signed-in member's levels, live (issue 62): Dexie's live queries over db/follows/follows.ts,
// so a change made in any tab, or pulled from another device, shows at once.
import { useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { FollowRow } from '../db/storage/schema';
import { onSessionChange, readStoredSession } from '../db/members/session';
import { autoWatchOf, followLevelOf, followsOf, topicFollowsOf } from '../db/follows/follows';
import { levelLookup, type FollowKind, type FollowLevel, type LevelOf } from '../shared/follows';

/** The signed-in member's email ('' when nobody is signed in), following sign-in and sign-out in every tab. */
export function useSignedInEmail(): string {
  return useSyncExternalStore(onSessionChange, () => readStoredSession()?.email ?? '');
}

const NO_LEVELS: LevelOf = () => undefined;

/** The signed-in member's own level on a target, live (undefined: they set none, or it is being read). */
export function useFollowLevel(kind: FollowKind, target: string): FollowLevel | undefined {
  const email = useSignedInEmail();
  return useLiveQuery(async () => (email ? followLevelOf(email, kind, target) : undefined), [email, kind, target]);
}

/** A lookup over all of the signed-in member's levels, live (follows.ts effectiveLevel, mutedOut); empty while it is read. */
export function useLevelOf(): LevelOf {
  const email = useSignedInEmail();
  return useLiveQuery(async () => (email ? levelLookup(await followsOf(email)) : NO_LEVELS), [email], NO_LEVELS);
}

/** The categories and tags the signed-in member set a level on (not Normal), live; empty while read. */
export function useTopicFollows(): FollowRow[] {
  const email = useSignedInEmail();
  return useLiveQuery(async () => (email ? topicFollowsOf(email) : []), [email], []);
}

/** Whether writing makes the signed-in member watch what they wrote, live (true while read: the default). */
export function useAutoWatch(): boolean {
  const email = useSignedInEmail();
  return useLiveQuery(async () => (email ? autoWatchOf(email) : true), [email], true);
}
