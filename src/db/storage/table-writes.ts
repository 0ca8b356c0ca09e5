// Writes to whole tables, in this tab or any other: Dexie's `storagemutated` event, which Dexie
// raises after each commit here and relays between tabs (BroadcastChannel). For reads that follow
// writes on their own terms (coalesced) instead of useLiveQuery's re-read at every commit.

import Dexie, { type ObservabilitySet } from 'dexie';
import { db } from './schema';

/** Calls `listener` after any tab commits a write to one of `tables`; returns stop. */
export function onTablesWritten(tables: readonly string[], listener: () => void): () => void {
  const prefixes = tables.map((table) => `idb://${db.name}/${table}/`);
  // `all`: Dexie's "anything may have changed" (a page restored from the back/forward cache).
  const handler = (parts: ObservabilitySet) => {
    if ('all' in parts || Object.keys(parts).some((part) => prefixes.some((prefix) => part.startsWith(prefix)))) listener();
  };
  Dexie.on('storagemutated', handler);
  return () => Dexie.on('storagemutated').unsubscribe(handler);
}
