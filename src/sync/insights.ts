// Insights for /admin/insights. Connected and online: the server's (GET /api/insights, checked
// with insightsSchema); local-only, or a connected device that cannot reach the server:
// deviceInsights() (`source` says which).

import { requireAdmin } from '../db/members/guards';
import { deviceInsights } from '../db/insights/device-insights';
import { isConnectedDevice } from '../db/ops/sync-meta';
import type { Insights } from '../shared/insights';
import { createApi, isOffline, type SyncApi } from './api';

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** Admins only (else `admins_only`). */
export async function loadInsights(): Promise<Insights> {
  return loadInsightsWith(
    createApi((input, init) => fetch(input, init)),
    browserOnline(),
  );
}

/** loadInsights through `api` (tests pass the in-process server's client). */
export async function loadInsightsWith(api: Pick<SyncApi, 'insights'>, online: boolean): Promise<Insights> {
  requireAdmin();
  if (!online || !api.insights || !(await isConnectedDevice())) return deviceInsights();
  try {
    return await api.insights();
  } catch (error) {
    if (isOffline(error)) return deviceInsights();
    throw error;
  }
}
