// Sign-in attempt limits: a fixed window counter per limiter and key. routes/api/session.ts keeps
// two: every attempt per client address, and the wrong passwords per email and address pair, so a
// stranger's guesses never lock the owner out from another address. On PostgreSQL they are counted
// in the database (attempt_windows), so they hold across instances: one statement per attempt (an
// upsert: two instances counting the same key at once never lose an attempt). The embedded engine
// serves one instance only, so there they stay in memory (a durable write per attempt would cost a
// sign-in more than it guards). The window's clock is the instance's (`now`).
import type { Sql } from '../db/storage/adapter';

export interface LimitRule {
  max: number;
  windowMs: number;
}

/** Expired windows are swept after this many hits on one instance, or a window's time after the last sweep (one DELETE). */
const SWEEP_EVERY = 500;

/** Counts attempts per key; both kinds answer alike. */
export interface AttemptLimiter {
  /** Counts one attempt for `key`; resolves to the milliseconds to wait when the limit is passed, else 0. */
  hit(key: string): Promise<number>;
  /** Forgets `key`'s attempts (its owner got in). */
  clear(key: string): Promise<void>;
}

/** The limiter for `db`: shared through PostgreSQL, in memory on the embedded engine. */
export function attemptLimiter(db: Sql & { kind: 'pglite' | 'postgres' }, name: string, rule: LimitRule): AttemptLimiter {
  return db.kind === 'postgres' ? new SharedAttemptLimiter(db, name, rule) : new MemoryAttemptLimiter(rule);
}

/** In one instance's memory. */
export class MemoryAttemptLimiter implements AttemptLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly rule: LimitRule,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string): Promise<number> {
    const now = this.now();
    if (this.windows.size > 10_000) for (const [old, window] of this.windows) if (window.resetAt <= now) this.windows.delete(old);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.rule.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count > this.rule.max ? window.resetAt - now : 0;
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }
}

/** In PostgreSQL's attempt_windows, shared by every instance. */
export class SharedAttemptLimiter implements AttemptLimiter {
  private hits = 0;
  private sweptAt = 0;

  constructor(
    private readonly db: Sql,
    /** The limiter's name in attempt_windows. */
    private readonly name: string,
    private readonly rule: LimitRule,
    private readonly now: () => number = Date.now,
  ) {}

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

  async clear(key: string): Promise<void> {
    await this.db.query('DELETE FROM attempt_windows WHERE limiter = $1 AND key = $2', [this.name, key]);
  }
}
