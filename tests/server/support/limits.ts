// Member limits out of the way, for the tests that are not about them (their members write dozens of
// posts a second on their first day); the limit tests build their servers with the real defaults.
import { DEFAULT_LIMITS, LIMIT_NAMES, type Limits } from '../../../server/lib/limits';

const OPEN = { count: 1_000_000, seconds: 1, firstDayCount: 1_000_000, firstDaySeconds: 1 };

export const RELAXED_LIMITS = Object.fromEntries(LIMIT_NAMES.map((name) => [name, OPEN])) as Limits;

export { DEFAULT_LIMITS };

/** Opens every member limit of a running server through its admin API (`admin`: a client signed in as the admin). */
export async function relaxServerLimits(admin: {
  send(method: string, path: string, body?: unknown): Promise<{ status: number }>;
}): Promise<void> {
  for (const name of LIMIT_NAMES) {
    const answer = await admin.send('PUT', '/api/admin/limits', { name, rule: OPEN });
    if (answer.status !== 200) throw new Error(`the limit ${name} could not be relaxed (${answer.status})`);
  }
}
