// Sign-in attempt limits, in memory (per instance): a fixed window counter per key. Enough against
// guessing; a shared store would be needed across many hosts. routes/api/session.ts keeps two:
// every attempt per client address, and the wrong passwords per email and address pair, so a
// stranger's guesses never lock the owner out from another address.

export interface LimitRule {
  max: number;
  windowMs: number;
}

export class AttemptLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly rule: LimitRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt for `key`; returns the milliseconds to wait when the limit is passed, else 0. */
  hit(key: string): number {
    const now = this.now();
    if (this.windows.size > 10_000) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.rule.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count > this.rule.max ? window.resetAt - now : 0;
  }

  /** Without counting: the milliseconds to wait when `key` has used all its attempts, else 0. */
  wait(key: string): number {
    const now = this.now();
    const window = this.windows.get(key);
    return window && window.resetAt > now && window.count >= this.rule.max ? window.resetAt - now : 0;
  }

  /** Forgets `key`'s attempts (its owner got in). */
  clear(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
