// A member's saved posts on this device (issue 23, "Comfort").

import type { PostRow } from '../core/schema';

/** Saves or unsaves a post: the local row now, plus the `save` operation on a connected device. Live in every tab. */
export async function setSaved(_email: string, _postId: number, _saved: boolean): Promise<void> {
  throw new Error('not yet');
}

/** The ids of the member's saved posts, newest saved first. */
export async function savedPostIds(_email: string): Promise<number[]> {
  return [];
}

/** The member's saved posts that are on this device, newest saved first. */
export async function savedPosts(_email: string): Promise<PostRow[]> {
  return [];
}

export async function isSaved(_email: string, _postId: number): Promise<boolean> {
  return false;
}
