// Insights computed on this device (local-only mode, or an admin's device offline).
// CONTRACT (issue 22): the signature below is fixed; the data-layer work fills in the body with
// shared/insights.ts computeInsights over IndexedDB (posts' submittedAt/reviewedAt, likes per day).

import type { Insights } from '../../shared/insights';

/** The insights of what this device holds (`source: 'device'`). */
export async function deviceInsights(now = Date.now()): Promise<Insights> {
  void now;
  throw new Error('deviceInsights: not built yet (issue 22 data layer)');
}
