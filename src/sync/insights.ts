// Insights for /admin/insights. CONTRACT (issue 22): the signature below is fixed; the data-layer
// work fills in the body. Connected and online: the server's (GET /api/insights); local-only, or
// a connected device that cannot reach the server: deviceInsights() (`source` says which).

import type { Insights } from '../shared/insights';

/** Admins only (else `admins_only`). */
export async function loadInsights(): Promise<Insights> {
  throw new Error('loadInsights: not built yet (issue 22 data layer)');
}
