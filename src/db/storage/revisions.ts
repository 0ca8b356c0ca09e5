// Change numbers. `rev` (schema version 2) numbers each post that is added or changes status,
// for the search index. The `changes` counter in meta counts every write to posts, likes
// included, so the mirror can tell at start whether it already holds the latest state. Both
// are taken inside the writing readwrite transaction, so they grow in commit order across tabs.

import { META_KEYS } from '../contracts';
import { db } from './schema';

const CHANGES_KEY = META_KEYS.changes;

/** The next post change number; call it inside a readwrite transaction on posts. */
export async function nextRev(): Promise<number> {
  const last = await db.posts.orderBy('rev').lastKey();
  return (typeof last === 'number' ? last : 0) + 1;
}

/** Counts one more write to posts; call it inside a readwrite transaction that includes meta. */
export async function countChange(): Promise<void> {
  const row = await db.meta.get(CHANGES_KEY);
  await db.meta.put({ key: CHANGES_KEY, value: (typeof row?.value === 'number' ? row.value : 0) + 1 });
}

/** How many writes to posts there have been (0 before the first). */
export async function readChangeCount(): Promise<number> {
  const row = await db.meta.get(CHANGES_KEY);
  return typeof row?.value === 'number' ? row.value : 0;
}
