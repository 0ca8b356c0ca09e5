// Insights for admins (/admin/insights): one computation, run by the server over its tables in
// connected mode (GET /api/insights) and by the device over IndexedDB in local-only mode, so both
// modes count the same way. Weeks start on Monday and days at midnight, both in UTC.
import { CATEGORIES, type PostStatus } from './post-rules';
import type { Insights } from './insights-schema';
import { dayOf } from './utc-day';

/** How far back the charts reach. */
export const INSIGHT_WEEKS = 12;
export const INSIGHT_DAYS = 30;

const DAY_MS = 86_400_000;

/** What the computation needs of a post: when it was (last) submitted and reviewed, when known. */
export interface InsightsPost {
  category: string;
  status: PostStatus;
  /** When it entered the review queue (its creation, or its last resubmission), ms; null when unknown (old data). */
  submittedAt: number | null;
  /** When its last review happened, ms; null when unknown or never reviewed. */
  reviewedAt: number | null;
}

export interface InsightsInput {
  posts: readonly InsightsPost[];
  /** Likes given per UTC day ("YYYY-MM-DD"); days without likes may be absent. */
  likesByDay: readonly { day: string; likes: number }[];
  now: number;
}

export type { Insights } from './insights-schema';

export { dayOf };

/** Midnight UTC of the Monday of the week holding `ms`. */
export function weekStart(ms: number): number {
  const midnight = Math.floor(ms / DAY_MS) * DAY_MS;
  const weekday = (new Date(midnight).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return midnight - weekday * DAY_MS;
}

/** The nearest-rank percentile `p` (0–1) of sorted values, or null for none. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** The insights of a forum: `source` says who computed them. */
export function computeInsights({ posts, likesByDay, now }: InsightsInput, source: Insights['source']): Insights {
  const byCategory = new Map<string, { posts: number; approved: number }>(
    CATEGORIES.map((category) => [category, { posts: 0, approved: 0 }]),
  );
  for (const post of posts) {
    const entry = byCategory.get(post.category) ?? { posts: 0, approved: 0 };
    entry.posts += 1;
    if (post.status === 'approved') entry.approved += 1;
    byCategory.set(post.category, entry);
  }

  const firstWeek = weekStart(now) - (INSIGHT_WEEKS - 1) * 7 * DAY_MS;
  const perWeek = Array.from({ length: INSIGHT_WEEKS }, (_, index) => ({
    week: dayOf(firstWeek + index * 7 * DAY_MS),
    posts: 0,
    likes: 0,
  }));
  const weekIndex = (ms: number): number => Math.floor((weekStart(ms) - firstWeek) / (7 * DAY_MS));
  for (const post of posts) {
    if (post.submittedAt === null) continue;
    const index = weekIndex(post.submittedAt);
    if (index >= 0 && index < INSIGHT_WEEKS) perWeek[index]!.posts += 1;
  }
  for (const { day, likes } of likesByDay) {
    const ms = Date.parse(`${day}T00:00:00Z`);
    if (Number.isNaN(ms)) continue;
    const index = weekIndex(ms);
    if (index >= 0 && index < INSIGHT_WEEKS) perWeek[index]!.likes += likes;
  }

  const durations = posts
    .filter(
      (post) => post.status !== 'pending' && post.submittedAt !== null && post.reviewedAt !== null && post.reviewedAt >= post.submittedAt,
    )
    .map((post) => post.reviewedAt! - post.submittedAt!)
    .sort((a, b) => a - b);

  // Pending at a moment t: submitted by then (unknown times count as long ago) and not yet
  // reviewed (still pending, or reviewed after t).
  const pendingAt = (t: number): number =>
    posts.filter((post) => (post.submittedAt ?? -Infinity) <= t && (post.status === 'pending' || (post.reviewedAt ?? -Infinity) > t))
      .length;
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const queue = Array.from({ length: INSIGHT_DAYS }, (_, index) => {
    const dayStart = today - (INSIGHT_DAYS - 1 - index) * DAY_MS;
    const end = index === INSIGHT_DAYS - 1 ? now : dayStart + DAY_MS - 1;
    return { day: dayOf(dayStart), pending: pendingAt(end) };
  });

  return {
    computedAt: now,
    source,
    postsPerCategory: [...byCategory].map(([category, counts]) => ({ category, ...counts })),
    perWeek,
    reviewTime: { reviewed: durations.length, medianMs: percentile(durations, 0.5), p90Ms: percentile(durations, 0.9) },
    queue,
  };
}
