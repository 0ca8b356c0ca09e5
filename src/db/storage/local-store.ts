// The only wrapper around window.localStorage. Private windows, disabled site data and full
// quotas make every call able to throw; callers get a value or `undefined`, never an exception.

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Reads a key; `null` when absent, `undefined` when localStorage cannot be used. */
export function readLocal(key: string): string | null | undefined {
  try {
    const store = storage();
    return store ? store.getItem(key) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a key; resolves to the failure (e.g. QuotaExceededError) instead of throwing it. */
export function writeLocal(key: string, value: string): { ok: true } | { ok: false; error: unknown } {
  try {
    const store = storage();
    if (!store) return { ok: false, error: new Error('localStorage is unavailable') };
    store.setItem(key, value);
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Removes a key; a failure is ignored, never thrown. */
export function removeLocal(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // Nothing to do: the key stays, and readers treat an unusable store as empty.
  }
}

export function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}
