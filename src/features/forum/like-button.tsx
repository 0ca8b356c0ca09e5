import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { IconHeart, IconHeartFilled } from '@tabler/icons-react';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { likePost } from '../../db/posts';
import { formatCount } from '../../lib/format';
import type { Post } from '../../db/types';

/**
 * Adds one like per click (no limit, no toggle). The count moves at once: until IndexedDB reports
 * the new total, the button shows at least the count this tab has clicked up to.
 */
export function LikeButton({ post }: { post: Post }) {
  const [floor, setFloor] = useState(0);
  const showToast = useToast();
  const shown = Math.max(post.likes, floor);
  const liked = floor > 0;

  const like = () => {
    setFloor((previous) => Math.max(previous, post.likes) + 1);
    likePost(post.id).catch((error: unknown) => {
      setFloor(0);
      showToast(errorToast(error));
    });
  };

  const Icon = liked ? IconHeartFilled : IconHeart;
  return (
    <Button variant="light" size="sm" className={`app-like${liked ? ' is-liked' : ''}`} aria-label={`Like: ${post.title}`} onClick={like}>
      <Icon aria-hidden="true" size={18} />
      <span className="app-like-count">{formatCount(shown)}</span>
    </Button>
  );
}
