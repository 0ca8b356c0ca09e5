// The only wrapper around window.localStorage. Private windows, disabled site data and full
// quotas make every call able to throw; callers get a value or `undefined`, never an exception,
// and the first failure is reported once through `onLocalStoreFailure`.

type FailureListener = (error: unknown) => void;

const listeners = new Set<FailureListener>();
let reported = false;

function report(error: unknown): void {
  if (reported) return;
  reported = true;
  for (const listener of listeners) listener(error);
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch (error) {
    report(error);
    return undefined;
  }
}

/** Reads a key; `null` when absent, `undefined` when localStorage cannot be used. */
export function readLocal(key: string): string | null | undefined {
  try {
    const store = storage();
    return store ? store.getItem(key) : undefined;
  } catch (error) {
    report(error);
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
    if (!isQuotaError(error)) report(error);
    return { ok: false, error };
  }
}

/** Removes a key; failures are reported, never thrown. */
export function removeLocal(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch (error) {
    report(error);
  }
}

/** Lists the keys that start with `prefix` (empty when localStorage cannot be used). */
export function listLocalKeys(prefix: string): string[] {
  try {
    const store = storage();
    if (!store) return [];
    const keys: string[] = [];
    for (let i = 0; i < store.length; i += 1) {
      const key = store.key(i);
      if (key !== null && key.startsWith(prefix)) keys.push(key);
    }
    return keys;
  } catch (error) {
    report(error);
    return [];
  }
}

export function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}

/** Subscribes to the first localStorage failure of this page (reported once). */
export function onLocalStoreFailure(listener: FailureListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
