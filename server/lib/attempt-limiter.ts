// Sign-in attempt limits, per email and per client address, in memory (per instance): a fixed
// window counter per key. Enough against guessing; a shared store would be needed across many hosts.

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

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
