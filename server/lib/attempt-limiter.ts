// Sign-in attempt limits, in PostgreSQL (attempt_windows), so they hold across instances: a fixed
// window counter per limiter and key, counted in one statement (an upsert: two instances counting
// the same key at once never lose an attempt). routes/api/session.ts keeps two: every attempt per
// client address, and the wrong passwords per email and address pair, so a stranger's guesses never
// lock the owner out from another address. The window's clock is the instance's (`now`).
import type { Sql } from '../db/storage/adapter';

export interface LimitRule {
  max: number;
  windowMs: number;
}

/** Expired windows are swept after this many hits on one instance, or a window's time after the last sweep (one DELETE). */
const SWEEP_EVERY = 500;

export class AttemptLimiter {
  private hits = 0;
  private sweptAt = 0;

  constructor(
    private readonly db: Sql,
    /** The limiter's name in attempt_windows. */
    private readonly name: string,
    private readonly rule: LimitRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt for `key`; resolves to the milliseconds to wait when the limit is passed, else 0. */
  async hit(key: string): Promise<number> {
    const now = this.now();
    this.hits += 1;
    // An email and an address stay no longer than the window they count in, and a sweep's time after.
    if (this.hits % SWEEP_EVERY === 0 || now - this.sweptAt >= this.rule.windowMs) {
      this.sweptAt = now;
      await this.db.query('DELETE FROM attempt_windows WHERE limiter = $1 AND reset_at <= $2::bigint', [this.name, now]);
    }
    const [window] = await this.db.query<{ count: number | string; reset_at: number | string }>(
      `INSERT INTO attempt_windows (limiter, key, count, reset_at) VALUES ($1, $2, 1, $3::bigint + $4::bigint)
       ON CONFLICT (limiter, key) DO UPDATE SET
         count = CASE WHEN attempt_windows.reset_at <= $3::bigint THEN 1 ELSE attempt_windows.count + 1 END,
         reset_at = CASE WHEN attempt_windows.reset_at <= $3::bigint THEN EXCLUDED.reset_at ELSE attempt_windows.reset_at END
       RETURNING count, reset_at`,
      [this.name, key, now, this.rule.windowMs],
    );
    return Number(window!.count) > this.rule.max ? Number(window!.reset_at) - now : 0;
  }

  /** Forgets `key`'s attempts (its owner got in). */
  async clear(key: string): Promise<void> {
    await this.db.query('DELETE FROM attempt_windows WHERE limiter = $1 AND key = $2', [this.name, key]);
  }
}
