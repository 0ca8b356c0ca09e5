// Group commit of likes: likes pushed at the same time by any number of requests are applied in one
// statement (ie_like_batch, migrations 3, 4 and 33), so one commit and one WAL flush serve them all.
// Each like is still recorded by its op id in that commit, and each caller is answered only after it.
// Each like's limits are taken in that statement too, in the order the likes came (a like over one
// is answered slow_down and changes nothing), so the limits cost no commit of their own. A batch
// whose likes are all refused or duplicates leaves the change head alone and notifies no one. The
// posts' authors are named once per batch (one query, however many likes it holds).
import type { Database } from '../storage/adapter';
import type { PostRow } from '../posts/post-rows';
import { withAuthors } from '../members/authors';
import { slowDownOf, type SlowDown, type Take } from '../../lib/limits';

/** A limit a like takes: the like's own, or (`request`) its push's, which refuses the whole push (429). */
export interface LikeTake extends Take {
  request?: boolean;
}

/** One like as ie_like_batch takes it. */
export interface LikeInput {
  id: string;
  user: number;
  post: number;
  count: number;
  admin: boolean;
  email: string;
  /** Its limits, taken in this order before it; the first that has not enough stops it. */
  takes: LikeTake[];
}

/** The outcome of one like: the post row after it (its author named), the ie: code it was refused with, or the limit it was over. */
export type LikeOutcome =
  | { row: PostRow; code?: undefined }
  | { row?: undefined; code: 'duplicate' | 'not_approved' | 'not_found' }
  | { row?: undefined; code: 'slow_down'; over: LikeTake; slowDown: SlowDown };

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
          const rows = await this.db.query<BatchRow>('SELECT op_id, code, post, slowed, have FROM ie_like_batch($1::text::jsonb)', [
            JSON.stringify(batch.map((waiting) => waiting.like)),
          ]);
          // The next batch starts while this one's authors are read.
          void this.answer(batch, rows);
        } catch (error) {
          for (const waiting of batch) waiting.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** Answers each like of `batch` with its row of ie_like_batch's answer (`rows`, in the same order); never throws. */
  private async answer(batch: Waiting[], rows: BatchRow[]): Promise<void> {
    try {
      const outcomes = batch.map((waiting, index) => outcomeOf(waiting.like, rows[index]));
      await withAuthors(
        this.db,
        outcomes.flatMap((outcome) => (outcome.row ? [outcome.row] : [])),
      );
      batch.forEach((waiting, index) => waiting.resolve(outcomes[index]!));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}

/** One row of ie_like_batch's answer. */
interface BatchRow {
  op_id: string;
  code: string | null;
  post: unknown;
  slowed: string | null;
  have: unknown;
}

/** The outcome of `like` by its row of the batch's answer (the post's author not named yet). */
function outcomeOf(like: LikeInput, row: BatchRow | undefined): LikeOutcome {
  if (!row) throw new Error('ie_like_batch answered fewer rows than likes.');
  if (row.code === 'slow_down') {
    const over = like.takes.find((one) => one.name === row.slowed);
    if (!over) throw new Error(`ie_like_batch answered a limit the like did not take: ${row.slowed}.`);
    return { code: 'slow_down', over, slowDown: slowDownOf(over, Number(row.have)) };
  }
  if (row.code) return { code: row.code as 'duplicate' | 'not_approved' | 'not_found' };
  return { row: (typeof row.post === 'string' ? JSON.parse(row.post) : row.post) as PostRow };
}

const batchers = new WeakMap<Database, LikeBatcher>();

/** Applies `like` in the next group commit on `db`; resolves after the commit that contains it. */
export function applyLike(db: Database, like: LikeInput): Promise<LikeOutcome> {
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new LikeBatcher(db)));
  return batcher.add(like);
}
