import { useLiveQuery } from 'dexie-react-hooks';
import { countPostsByAuthor, listPostsByAuthor } from '../../db/posts/posts';
import { usePagedLiveQuery } from '../../hooks/use-paged-live-query';

/** The member's own posts (every status), newest first, paged and live. */
export function useMyPosts(email: string) {
  return usePagedLiveQuery((limit) => listPostsByAuthor(email, limit), email);
}

export function useMyPostCount(email: string): number | undefined {
  return useLiveQuery(() => countPostsByAuthor(email), [email]);
}
