import { useParams } from 'react-router-dom';
import { useAuth } from '../features/auth/auth-context';
import { PostScreen } from '../features/post/post-screen';
import { useNewPost } from '../features/posting/new-post-context';
import { preloadMarkdown } from '../components/markdown/markdown';

/** Settles once the Markdown renderer is ready (or could not load: the text then shows as written). */
export const markdownReady: Promise<unknown> = preloadMarkdown().catch(() => undefined);

/** Post ids are timestamps: digits only, within a safe integer; anything else is no post. */
const toPostId = (value: string | undefined): number | null =>
  value && /^\d{1,16}$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : null;

/** `/posts/:id`: one post and its replies. */
export function PostPage() {
  const { id } = useParams();
  const { user } = useAuth();
  const { edit } = useNewPost();
  if (!user) return null;
  const postId = toPostId(id);
  // A new post starts a fresh screen (its quote, its reply box, its scroll target).
  return <PostScreen key={postId ?? 'none'} postId={postId} viewer={user} onEdit={edit} />;
}
