// The open flags and how many items have them: the Admin link's badge reads this on every screen of
// an admin's, so it is a file of its own (flag-rows.ts, the flags' settling, loads with moderation).

import Dexie from 'dexie';
import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { requireAdmin } from '../members/guards';

/** The open flags, by item (the Flags queue's range). */
export const openFlags = () => db.flags.where('[open+target]').between([1, Dexie.minKey], [1, Dexie.maxKey]);

/** Admins: how many items have open flags (the Flags tab's count, and part of the Admin link's). */
export async function countFlaggedItems(): Promise<number> {
  requireAdmin();
  return withDataErrors(async () => (await openFlags().uniqueKeys()).length);
}
