// The three sample approved posts and their replies, written once: on the first start, when IndexedDB holds no
// posts and the legacy `posts` key is absent (product.md §3). A flag in `meta` keeps them from ever
// coming back after that, even if every post is later removed.

import { META_KEYS } from '../contracts';
import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { emitLocalChange } from '../storage/changes';
import { countChange, nextRev } from '../storage/revisions';
import { samplePosts } from '../../shared/sample-posts';
import { sampleReplies } from '../../shared/sample-replies';
import { newOperationId } from '../ops/uuid';

export { samplePosts };

const SEEDED_KEY = META_KEYS.seeded;
/**
 * Writes the sample posts on the very first start only; `legacyPostsPresent` is true when the
 * `posts` key exists (then the older build's posts are imported instead). Returns true if it seeded.
 */
export async function seedSamplePosts(legacyPostsPresent: boolean, now = Date.now()): Promise<boolean> {
  const seeded = await withDataErrors(() =>
    db.transaction('rw', [db.posts, db.replies, db.reads, db.meta], async () => {
      if (await db.meta.get(SEEDED_KEY)) return false;
      await db.meta.put({ key: SEEDED_KEY, value: now });
      // Two tabs starting at once both get here; the transaction lets only the first one write.
      if (legacyPostsPresent || (await db.posts.count()) > 0) return false;
      let rev = await nextRev();
      const posts = samplePosts(now);
      // The sample posts were there from the start: never "new" (arrivedAt 0).
      await db.posts.bulkAdd(posts.map((post) => ({ ...post, rev: rev++, arrivedAt: 0 })));
      await db.replies.bulkAdd(sampleReplies(posts, newOperationId).map((reply) => ({ ...reply, listed: 1 as const, arrivedAt: 0 })));
      await countChange();
      return true;
    }),
  );
  if (seeded) emitLocalChange('seeded');
  return seeded;
}
