// Comfort's server requests (connected mode): search and member pages.

import type { MemberProfile } from '../shared/comfort';

/** GET /api/search: stores the posts like pulled posts (the pull cursor stays) and returns their ids, best first. */
export async function searchServer(_query: string, _category: string): Promise<{ ids: number[]; total: number }> {
  throw new Error('not yet');
}

/** GET /api/members/:id. */
export async function fetchMemberProfile(_id: string): Promise<MemberProfile> {
  throw new Error('not yet');
}
