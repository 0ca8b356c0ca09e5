import { memo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Spinner } from '../../components/spinner';
import { IconCheck, IconX } from '@tabler/icons-react';
import { PostCard, samePost } from '../../components/post-card';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { approvePost, rejectPost } from '../../db/posts/posts';
import type { EditablePost } from '../../db/posts/editing';

type Decision = 'approve' | 'reject';

/** A pending post with Approve and Reject; content clamped at 2 lines; "Resubmitted" once its author edited it after a rejection. */
export const PendingPost = memo(
  function PendingPost({ post, onReviewing }: { post: EditablePost; onReviewing: (postId: number) => void }) {
    const [busy, setBusy] = useState<Decision | null>(null);
    const showToast = useToast();

    const decide = async (decision: Decision) => {
      setBusy(decision);
      onReviewing(post.id);
      try {
        await (decision === 'approve' ? approvePost(post.id) : rejectPost(post.id));
        showToast(
          decision === 'approve'
            ? { title: 'Post approved', description: 'The post has been successfully approved.' }
            : { title: 'Post rejected', description: 'The post has been successfully rejected.' },
        );
      } catch (error) {
        showToast(errorToast(error));
        setBusy(null);
      }
    };

    return (
      <PostCard
        post={post}
        lines={2}
        badges={post.resubmitted && <span className="badge text-bg-info app-resubmitted">Resubmitted</span>}
        footer={
          <div className="app-review-actions">
            <Button
              variant="success"
              onClick={() => void decide('approve')}
              disabled={busy !== null}
              aria-describedby={`post-${post.id}-title`}
            >
              {busy === 'approve' ? <Spinner /> : <IconCheck aria-hidden="true" size={18} />}
              <span>Approve</span>
            </Button>
            <Button
              variant="outline-danger"
              onClick={() => void decide('reject')}
              disabled={busy !== null}
              aria-describedby={`post-${post.id}-title`}
            >
              {busy === 'reject' ? <Spinner /> : <IconX aria-hidden="true" size={18} />}
              <span>Reject</span>
            </Button>
          </div>
        }
      />
    );
  },
  (previous, next) => samePost(previous.post, next.post) && previous.onReviewing === next.onReviewing,
);
