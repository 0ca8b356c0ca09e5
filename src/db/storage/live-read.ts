// A live read outside React's hooks: for a screen that holds a changing number of live reads (the
// paged list's pages, hooks/use-paged-live-query.ts), which useLiveQuery cannot do.
import { liveQuery } from 'dexie';

/**
 * Runs `read` now and again after each change to what it read (in this tab or another), giving
 * each answer to `next` (a failure to `error`); the returned function ends it.
 */
export function watchRead<T>(read: () => Promise<T>, next: (value: T) => void, error: (reason: unknown) => void): () => void {
  const subscription = liveQuery(read).subscribe({ next, error });
  return () => subscription.unsubscribe();
}
