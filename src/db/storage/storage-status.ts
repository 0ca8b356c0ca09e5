// Durable storage: after the member's first post or like, the browser is asked to keep this
// site's data (navigator.storage.persist()); the profile shows whether it agreed and the usage.

import { onLocalChange } from './changes';

export interface StorageStatus {
  /** null when the browser cannot tell (no StorageManager). */
  persisted: boolean | null;
  usage: number | null;
  quota: number | null;
}

let asked = false;

/** Asks once per page for persistent storage; resolves to whether storage is persistent. */
export async function requestDurableStorage(): Promise<boolean | null> {
  const manager = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  if (!manager?.persist) return null;
  if (await manager.persisted()) return true;
  if (asked) return false;
  asked = true;
  return manager.persist();
}

/** Asks for persistence after the first post or like of this page. */
export function startDurableStorageRequest(): () => void {
  const stop = onLocalChange((kind) => {
    if (kind !== 'op:create' && kind !== 'op:like') return;
    stop();
    void requestDurableStorage().catch(() => null);
  });
  return stop;
}

/** Whether storage is persistent and how much this site uses, as far as the browser tells. */
export async function readStorageStatus(): Promise<StorageStatus> {
  const manager = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  const [persisted, estimate] = await Promise.all([
    manager?.persisted ? manager.persisted().catch(() => null) : Promise.resolve(null),
    manager?.estimate ? manager.estimate().catch(() => null) : Promise.resolve(null),
  ]);
  return { persisted, usage: estimate?.usage ?? null, quota: estimate?.quota ?? null };
}
