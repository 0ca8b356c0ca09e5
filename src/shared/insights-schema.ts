// The wire shape of the insights (GET /api/insights), apart from their computation in insights.ts:
// zod loads only with the sync code that checks an answer, never with the device's likes (which
// need only utc-day.ts's dayOf): zod's construction probes `new Function`, which the CSP refuses.
import { z } from 'zod';

export const insightsSchema = z.object({
  computedAt: z.number(),
  source: z.enum(['server', 'device']),
  postsPerCategory: z.array(z.object({ category: z.string(), posts: z.number(), approved: z.number() })),
  /** The last INSIGHT_WEEKS weeks, oldest first; `week` is its Monday ("YYYY-MM-DD"). */
  perWeek: z.array(z.object({ week: z.string(), posts: z.number(), likes: z.number() })),
  /** Time from submission to review over the posts whose both times are known. */
  reviewTime: z.object({ reviewed: z.number(), medianMs: z.number().nullable(), p90Ms: z.number().nullable() }),
  /** Posts waiting for review at the end of each of the last INSIGHT_DAYS days (the last one: now), oldest first. */
  queue: z.array(z.object({ day: z.string(), pending: z.number() })),
});
export type Insights = z.infer<typeof insightsSchema>;
