// Group commit of likes: likes pushed at the same time by any number of requests are applied in one
// statement (ie_like_batch, migrations 3 and 4), so one commit and one WAL flush serve them all. Each
// like is still recorded by its op id in that commit, and each caller is answered only after it. A
// batch whose likes are all refused or duplicates leaves the change head alone and notifies no one.
import type { Database } from '../storage/adapter';
import type { PostRow } from '../posts/post-rows';

/** One like as ie_like_batch takes it. */
export interface LikeInput {
  id: string;
  user: number;
  post: number;
  count: number;
  admin: boolean;
  email: string;
}

/** The outcome of one like: the post row after it, or the ie: code it was refused with. */
export type LikeOutcome = { row: PostRow; code?: undefined } | { row?: undefined; code: string };

interface Waiting {
  like: LikeInput;
  resolve: (outcome: LikeOutcome) => void;
  reject: (error: unknown) => void;
}

/** At most this many likes in one statement. */
const MAX_BATCH = 1000;

class LikeBatcher {
  private queue: Waiting[] = [];
  private running = false;

  constructor(private readonly db: Database) {}

  add(like: LikeInput): Promise<LikeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ like, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  /** Up to MAX_BATCH waiting likes with distinct op ids; a repeated id waits for the next batch. */
  private takeBatch(): Waiting[] {
    const ids = new Set<string>();
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    for (const waiting of this.queue) {
      if (batch.length < MAX_BATCH && !ids.has(waiting.like.id)) {
        ids.add(waiting.like.id);
        batch.push(waiting);
      } else later.push(waiting);
    }
    this.queue = later;
    return batch;
  }

  /** One batch at a time: the likes that arrive while one commits form the next. */
  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.takeBatch();
        try {
          const rows = await this.db.query<{ op_id: string; code: string | null; post: unknown }>(
            'SELECT op_id, code, post FROM ie_like_batch($1::text::jsonb)',
            [JSON.stringify(batch.map((waiting) => waiting.like))],
          );
          batch.forEach((waiting, index) => {
            const row = rows[index];
            if (!row) waiting.reject(new Error('ie_like_batch answered fewer rows than likes.'));
            else if (row.code) waiting.resolve({ code: row.code });
            else waiting.resolve({ row: (typeof row.post === 'string' ? JSON.parse(row.post) : row.post) as PostRow });
          });
        } catch (error) {
          for (const waiting of batch) waiting.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

const batchers = new WeakMap<Database, LikeBatcher>();

/** Applies `like` in the next group commit on `db`; resolves after the commit that contains it. */
export function applyLike(db: Database, like: LikeInput): Promise<LikeOutcome> {
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new LikeBatcher(db)));
  return batcher.add(like);
}
