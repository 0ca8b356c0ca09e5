import Button from 'react-bootstrap/Button';
import { IconEye, IconMessageCircle, IconShare } from '@tabler/icons-react';
import { useToast } from '../../components/toast/toast-context';
import { formatCount } from '../../lib/format';
import type { Post } from '../../db/types';
import { LikeButton } from './like-button';

/** The action row of a forum card: like, comment and view counts, share. */
export function PostActions({ post }: { post: Post }) {
  const showToast = useToast();
  return (
    <div className="app-post-actions">
      <LikeButton post={post} />
      <span className="app-stat" title="Comments">
        <IconMessageCircle aria-hidden="true" size={18} />
        <span className="visually-hidden">Comments:</span> {formatCount(post.comments)}
      </span>
      <span className="app-stat" title="Views">
        <IconEye aria-hidden="true" size={18} />
        <span className="visually-hidden">Views:</span> {formatCount(post.views)}
      </span>
      <Button
        variant="light"
        size="sm"
        className="app-share ms-auto"
        aria-label={`Share: ${post.title}`}
        onClick={() => showToast({ title: 'Coming soon', description: "Sharing isn't available yet.", variant: 'info' })}
      >
        <IconShare aria-hidden="true" size={18} />
        <span className="d-none d-sm-inline">Share</span>
      </Button>
    </div>
  );
}
