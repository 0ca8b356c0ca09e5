import { useLiveQuery } from 'dexie-react-hooks';
import { countPendingPosts, listPendingPosts } from '../../db/posts/posts';
import { usePagedLiveQuery } from '../../hooks/use-paged-live-query';

/** Posts waiting for review, newest first, paged and live in every admin tab. */
export function usePendingPosts() {
  return usePagedLiveQuery((limit) => listPendingPosts(limit), 'pending');
}

export function usePendingCount(): number | undefined {
  return useLiveQuery(() => countPendingPosts(), []);
}
