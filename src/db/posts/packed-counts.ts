// How many posts a local-only device holds packed (packed.ts), apart so that the forum's first
// screen can show the count without loading the code that packs and unpacks.

import { db } from '../storage/schema';
import { META_KEYS } from '../contracts';

/** How many approved posts are packed, in all (`All`) and by category; {} when none are. */
export type PackedCounts = Record<string, number>;

export async function readPackedCounts(): Promise<PackedCounts> {
  const row = await db.meta.get(META_KEYS.packedCounts);
  return (row?.value as PackedCounts | undefined) ?? {};
}
