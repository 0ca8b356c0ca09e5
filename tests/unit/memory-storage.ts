// An in-memory Storage for unit tests, with the two faults real browsers produce: a quota
// (QuotaExceededError past `quota` characters) and a storage that throws on every call.

export class MemoryStorage implements Storage {
  private readonly values = new Map<string, string>();
  /** When set, every call throws this error (private mode, disabled site data). */
  failWith: Error | undefined;
  /** The most characters (keys plus values) the storage holds. */
  quota = Infinity;

  private check(): void {
    if (this.failWith) throw this.failWith;
  }

  get length(): number {
    this.check();
    return this.values.size;
  }

  clear(): void {
    this.check();
    this.values.clear();
  }

  getItem(key: string): string | null {
    this.check();
    return this.values.get(key) ?? null;
  }

  key(index: number): string | null {
    this.check();
    return [...this.values.keys()][index] ?? null;
  }

  removeItem(key: string): void {
    this.check();
    this.values.delete(key);
  }

  setItem(key: string, value: string): void {
    this.check();
    let used = key.length + value.length;
    for (const [k, v] of this.values) if (k !== key) used += k.length + v.length;
    if (used > this.quota) {
      const error = new Error('The quota has been exceeded.');
      error.name = 'QuotaExceededError';
      throw error;
    }
    this.values.set(key, String(value));
  }

  [name: string]: unknown;
}
