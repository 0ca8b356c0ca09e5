// Insights computed on this device (local-only mode, or an admin's device offline): shared/insights.ts
// computeInsights over what IndexedDB holds: each post's category, status, submittedAt and
// reviewedAt (one walk of the posts, the only read that needs every post), and the likes per day.

import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { readLikeDays } from '../likes/like-days';
import { computeInsights, type Insights, type InsightsPost } from '../../shared/insights';

/** The insights of what this device holds (`source: 'device'`). */
export async function deviceInsights(now = Date.now()): Promise<Insights> {
  return withDataErrors(async () => {
    const posts: InsightsPost[] = [];
    await db.posts.each((row) => {
      posts.push({ category: row.category, status: row.status, submittedAt: row.submittedAt ?? null, reviewedAt: row.reviewedAt ?? null });
    });
    return computeInsights({ posts, likesByDay: await readLikeDays(), now }, 'device');
  });
}
