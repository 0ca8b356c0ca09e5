// Change numbers for posts (the `rev` index of schema version 2). Taken inside the writing
// readwrite transaction, so they grow in commit order across tabs: whoever has seen rev N has
// seen every change numbered up to N.

import { db } from './schema';

/** The next change number; call it inside a readwrite transaction on posts. */
export async function nextRev(): Promise<number> {
  const last = await db.posts.orderBy('rev').lastKey();
  return (typeof last === 'number' ? last : 0) + 1;
}
