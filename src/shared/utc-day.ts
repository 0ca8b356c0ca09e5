// The UTC day of a moment, as the insights count days (insights.ts) and the device counts its likes
// per day (src/db/likes/like-days.ts): a file of its own, so that counting a like does not load the
// insights' computation.

/** "YYYY-MM-DD" of the UTC day holding `ms`. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
