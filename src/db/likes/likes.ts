// Likes: the `like` operation (src/shared/ops/like.ts, run here by ops/run.ts) on the forum's cards
// and a post's page. An increment in one transaction, so likes from many tabs are never lost; the
// device's insights count it per day (like-days.ts).

import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { runOperation } from '../ops/run-later';

/** Adds exactly one like to an approved post the member may see; returns the new count. */
export async function likePost(id: number): Promise<number> {
  await runOperation('like', { postId: id });
  return (await withDataErrors(() => db.posts.get(id)))?.likes ?? 0;
}
