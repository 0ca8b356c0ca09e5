import { useEffect, useRef } from 'react';
import { AdminBadge } from '../../components/author-name';
import { Link, useLocation } from 'react-router-dom';
import { useLiveQuery } from 'dexie-react-hooks';
import { IconBookmark, IconBookmarkFilled } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { savedPosts, setSaved } from '../../db/saved/saved';
import { paths } from '../../config/paths';
import { DISPLAY_CHARS, clip } from '../../lib/format';
import { useCategoryNameOf } from '../../hooks/use-categories';
import './profile.scss';

/** The anchor of this section (Profile's #saved-posts, the manifest's "Saved" shortcut). */
export const SAVED_POSTS_ID = 'saved-posts';

/** Saved Posts: the member's saved posts on this device, newest saved first, each with Unsave. */
export function SavedPosts({ email }: { email: string }) {
  const posts = useLiveQuery(() => savedPosts(email), [email]);
  // A category by the name the forum shows (one the admins made is kept by its id).
  const nameOf = useCategoryNameOf();
  const showToast = useToast();
  const section = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  const loaded = posts !== undefined;
  useEffect(() => {
    if (loaded && hash === `#${SAVED_POSTS_ID}`) section.current?.scrollIntoView({ block: 'start' });
  }, [loaded, hash]);

  const unsave = (postId: number) => {
    setSaved(email, postId, false).catch((error: unknown) => showToast(errorToast(error)));
  };

  return (
    <section ref={section} id={SAVED_POSTS_ID} className="card app-panel app-saved" aria-labelledby="saved-posts-title">
      <div className="card-body">
        <h2 id="saved-posts-title" className="app-sidebar-title">
          <IconBookmarkFilled aria-hidden="true" size={20} /> Saved Posts
        </h2>
        {!posts ? (
          <PageLoading label="Loading your saved posts..." />
        ) : posts.length === 0 ? (
          <EmptyState icon={<IconBookmark size={32} />} title="No saved posts yet.">
            Press Save on a post to keep it here, readable offline.
          </EmptyState>
        ) : (
          <ul className="list-unstyled mb-0 app-saved-list">
            {posts.map((post) => (
              <li key={post.id}>
                <span className="app-saved-text">
                  <Link id={`saved-${post.id}-title`} to={paths.post(post.id)} className="app-saved-link">
                    {clip(post.title, DISPLAY_CHARS.title)}
                  </Link>
                  <span className="small text-body-secondary">
                    {clip(post.author, DISPLAY_CHARS.author)} {post.authorRole === 'admin' && <AdminBadge />}·{' '}
                    {clip(nameOf(post.category), DISPLAY_CHARS.category)}
                  </span>
                </span>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  aria-describedby={`saved-${post.id}-title`}
                  onClick={() => unsave(post.id)}
                >
                  Unsave
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
