import { memo, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { IconCheck, IconChevronDown, IconChevronUp, IconX } from '@tabler/icons-react';
import { Markdown } from '../../components/markdown/markdown';
import { Spinner } from '../../components/spinner';
import { PostCard, samePost } from '../../components/post-card';
import { MODERATION_LIMITS } from '../../shared/moderation';
import type { EditablePost } from '../../db/posts/editing';

export type Decision = 'approve' | 'reject';

interface PendingPostProps {
  post: EditablePost;
  /** The review under way for this post, if any. */
  busy: Decision | null;
  selected: boolean;
  reason: string;
  onDecide: (postId: number, decision: Decision) => void;
  onSelect: (postId: number, selected: boolean) => void;
  onReason: (postId: number, reason: string) => void;
}

/**
 * A pending post: an optional Reason (sent with Reject), Select (for the bulk buttons), Approve and
 * Reject; content clamped at 2 lines, with "Read all" to read the whole post in place (rendered, its
 * tables whole); "Resubmitted" once its author edited it after a rejection. The card itself takes
 * focus (j / k).
 */
export const PendingPost = memo(
  function PendingPost({ post, busy, selected, reason, onDecide, onSelect, onReason }: PendingPostProps) {
    const id = useId();
    const titleId = `post-${post.id}-title`;
    const [expanded, setExpanded] = useState(false);
    return (
      <PostCard
        post={post}
        lines={2}
        body={expanded ? <Markdown source={post.content} className="app-review-full" /> : undefined}
        more={
          <button
            type="button"
            className="btn btn-link btn-sm app-review-more"
            aria-expanded={expanded}
            aria-describedby={titleId}
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? <IconChevronUp aria-hidden="true" size={16} /> : <IconChevronDown aria-hidden="true" size={16} />}
            <span>{expanded ? 'Show less' : 'Read all'}</span>
          </button>
        }
        tabIndex={-1}
        className={`app-pending${selected ? ' is-selected' : ''}`}
        badges={post.resubmitted && <span className="badge text-bg-info app-resubmitted">Resubmitted</span>}
        footer={
          <div className="app-review">
            <div className="app-review-reason">
              <Form.Label htmlFor={`${id}-reason`} className="app-review-label">
                Reason
              </Form.Label>
              <Form.Control
                id={`${id}-reason`}
                size="sm"
                value={reason}
                maxLength={MODERATION_LIMITS.reason}
                placeholder="Optional, sent with Reject"
                aria-describedby={titleId}
                onChange={(event) => onReason(post.id, event.target.value)}
              />
            </div>
            <div className="app-review-row">
              <Form.Check
                id={`${id}-select`}
                className="app-review-select"
                label="Select"
                checked={selected}
                aria-describedby={titleId}
                onChange={(event) => onSelect(post.id, event.target.checked)}
              />
              <div className="app-review-actions">
                <Button variant="success" onClick={() => onDecide(post.id, 'approve')} disabled={busy !== null} aria-describedby={titleId}>
                  {busy === 'approve' ? <Spinner /> : <IconCheck aria-hidden="true" size={18} />}
                  <span>Approve</span>
                </Button>
                <Button
                  variant="outline-danger"
                  onClick={() => onDecide(post.id, 'reject')}
                  disabled={busy !== null}
                  aria-describedby={titleId}
                >
                  {busy === 'reject' ? <Spinner /> : <IconX aria-hidden="true" size={18} />}
                  <span>Reject</span>
                </Button>
              </div>
            </div>
          </div>
        }
      />
    );
  },
  (previous, next) =>
    samePost(previous.post, next.post) &&
    previous.busy === next.busy &&
    previous.selected === next.selected &&
    previous.reason === next.reason &&
    previous.onDecide === next.onDecide &&
    previous.onSelect === next.onSelect &&
    previous.onReason === next.onReason,
);
