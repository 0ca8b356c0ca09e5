import { useLiveQuery } from 'dexie-react-hooks';
import { countPostsByAuthor, listPostsByAuthor, unsentPostIds, type ReviewedPost } from '../../db/posts/posts';
import { usePagedLiveQuery } from '../../hooks/use-paged-live-query';

/** One of the member's posts, and whether its writing still waits on this device ("Not sent yet"). */
export type MyPost = ReviewedPost & { unsent: boolean };

/** The member's own posts (every status), newest first, paged and live, each marked when it is not sent yet. */
export function useMyPosts(email: string) {
  return usePagedLiveQuery<MyPost>(async (page) => {
    const posts = await listPostsByAuthor(email, page);
    const unsent = await unsentPostIds(posts.map((post) => post.id));
    return posts.map((post) => ({ ...post, unsent: unsent.has(post.id) }));
  }, email);
}

export function useMyPostCount(email: string): number | undefined {
  return useLiveQuery(() => countPostsByAuthor(email), [email]);
}
