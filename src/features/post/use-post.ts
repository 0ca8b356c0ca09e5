import { useLiveQuery } from 'dexie-react-hooks';
import { getPost, maySee } from '../../db/posts/posts';
import type { EditablePost } from '../../db/posts/editing';
import type { Session } from '../../db/types';

/** The post of a page: still loading, not on this device (or not for this member), or shown. */
export type PostLookup = { state: 'loading' } | { state: 'missing' } | { state: 'shown'; post: EditablePost };

/** The post with this id as this member may see it, live in every tab; null ids are missing. */
export function usePost(postId: number | null, session: Session): PostLookup {
  const found = useLiveQuery(async () => ({ postId, post: postId === null ? undefined : await getPost(postId) }), [postId]);
  if (postId === null) return { state: 'missing' };
  if (!found || found.postId !== postId) return { state: 'loading' };
  if (!found.post || !maySee(found.post, session)) return { state: 'missing' };
  return { state: 'shown', post: found.post };
}
