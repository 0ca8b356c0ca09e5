// A tiny in-page signal that src/db raises after each committed write, so that the mirror and
// the durable-storage request can follow writes without the writers knowing about them; and the
// page's bulk writes (an import), which followers that can wait (the search index) catch up on once.

import type { OpType } from '../../shared/ops/registry';

/**
 * What was written: an operation run here (`op:<type>`), or the device's own bookkeeping. `revoked`
 * follows a `synced` whose pull took away posts the member may no longer see: the copies outside
 * IndexedDB (the `posts` copy) follow at once, not at their next quiet moment.
 */
export type ChangeKind = `op:${OpType}` | 'undone' | 'posts-imported' | 'seeded' | 'space-freed' | 'synced' | 'revoked';

type ChangeListener = (kind: ChangeKind) => void;

const listeners = new Set<ChangeListener>();

/** Raised after a write has committed, never before. */
export function emitLocalChange(kind: ChangeKind): void {
  for (const listener of listeners) listener(kind);
}

export function onLocalChange(listener: ChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let bulkWrites = 0;
const bulkEndListeners = new Set<() => void>();

/** Runs `work` (many transactions, e.g. an import) as one bulk write; when the last one ends, onBulkWriteEnd listeners run. */
export async function asBulkWrite<T>(work: () => Promise<T>): Promise<T> {
  bulkWrites += 1;
  try {
    return await work();
  } finally {
    bulkWrites -= 1;
    if (bulkWrites === 0) for (const listener of bulkEndListeners) listener();
  }
}

/** True while this page runs a bulk write. */
export const isBulkWriting = (): boolean => bulkWrites > 0;

export function onBulkWriteEnd(listener: () => void): () => void {
  bulkEndListeners.add(listener);
  return () => bulkEndListeners.delete(listener);
}
