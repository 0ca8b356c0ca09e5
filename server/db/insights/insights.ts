// The figures of /admin/insights from the server's tables: every post's category, status and its
// submission and review times, and the likes per UTC day of the weeks the charts reach (like_days,
// kept by a trigger on posts, migration 7). The counting itself is computeInsights, the one the
// local-only device runs too; its answer is checked with insightsSchema before it is sent.
import { computeInsights, INSIGHT_WEEKS, weekStart, type InsightsPost } from '../../../src/shared/insights';
import { insightsSchema, type Insights } from '../../../src/shared/insights-schema';
import type { PostStatus } from '../../../src/shared/post-rules';
import type { Sql } from '../storage/adapter';

const DAY_MS = 86_400_000;

interface RawInsights {
  posts: { category: string; status: PostStatus; submitted_at: number | string | null; reviewed_at: number | string | null }[];
  likes: { day: string; likes: number | string }[];
}

const msOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** The insights of the forum at `now`, computed by the server (one statement reads both tables, as one JSON text). */
export async function readInsights(sql: Sql, now = Date.now()): Promise<Insights> {
  const since = new Date(weekStart(now) - (INSIGHT_WEEKS - 1) * 7 * DAY_MS).toISOString().slice(0, 10);
  const [row] = await sql.query<{ raw: string }>(
    `SELECT json_build_object(
       'posts', (SELECT coalesce(json_agg(json_build_object('category', category, 'status', status,
                  'submitted_at', submitted_at, 'reviewed_at', reviewed_at)), '[]') FROM posts),
       'likes', (SELECT coalesce(json_agg(json_build_object('day', to_char(day, 'YYYY-MM-DD'), 'likes', likes)), '[]')
                 FROM like_days WHERE day >= $1::date)
     )::text AS raw`,
    [since],
  );
  const raw = JSON.parse(row!.raw) as RawInsights;
  const posts: InsightsPost[] = raw.posts.map((post) => ({
    category: post.category,
    status: post.status,
    submittedAt: msOrNull(post.submitted_at),
    reviewedAt: msOrNull(post.reviewed_at),
  }));
  const likesByDay = raw.likes.map((entry) => ({ day: entry.day, likes: Number(entry.likes) }));
  // A shape this server cannot send is its own fault (a 500 in the log), not the request's.
  const checked = insightsSchema.safeParse(computeInsights({ posts, likesByDay, now }, 'server'));
  if (!checked.success) throw new Error(`insights of an unexpected shape: ${checked.error.message}`);
  return checked.data;
}
