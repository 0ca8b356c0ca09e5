// A tiny in-page signal that src/db raises after each committed write, so that the mirror and
// the durable-storage request can follow writes without the writers knowing about them.

export type ChangeKind = 'post-created' | 'post-liked' | 'post-reviewed' | 'posts-imported' | 'seeded' | 'synced';

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
