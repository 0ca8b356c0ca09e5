import { useContext, useState } from 'react';
import { LikeContext } from './like-context';
import { useToast } from './toast/toast-context';
import { errorToast } from './toast/error-toast';
import { DISPLAY_CHARS, clip, formatCount, plural } from '../lib/format';
import type { Post } from '../db/types';

/**
 * Adds one like per click (no limit, no toggle). The count moves at once: until IndexedDB reports
 * the new total, the button shows at least the count this tab has clicked up to.
 */
export function LikeButton({ post }: { post: Post }) {
  const [floor, setFloor] = useState(0);
  const showToast = useToast();
  const shown = Math.max(post.likes, floor);

  // The data layer's like, given by the protected area (the forum's first frame shows this button without it).
  const likePost = useContext(LikeContext);

  const like = () => {
    if (!likePost) return;
    setFloor((previous) => Math.max(previous, post.likes) + 1);
    likePost(post.id).catch((error: unknown) => {
      setFloor(0);
      showToast(errorToast(error));
    });
  };

  // The heart is a CSS mask of the Tabler icon, so each card stays a few DOM nodes light.
  return (
    <button
      type="button"
      className={`btn btn-sm app-like${floor > 0 ? ' is-liked' : ''}`}
      aria-label={`Like: ${clip(post.title, DISPLAY_CHARS.title)} (${plural(shown, 'like')})`}
      onClick={like}
    >
      {formatCount(shown)}
    </button>
  );
}
