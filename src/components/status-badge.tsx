import Badge from 'react-bootstrap/Badge';
import type { PostStatus } from '../db/types';

const styles: Record<PostStatus, { bg: string; text?: 'dark' }> = {
  pending: { bg: 'warning', text: 'dark' },
  approved: { bg: 'success' },
  rejected: { bg: 'danger' },
};

/** The status of a post in words: pending, approved or rejected. */
export function StatusBadge({ status }: { status: PostStatus }) {
  const style = styles[status];
  return (
    <Badge bg={style.bg} text={style.text} className="app-status-badge">
      {status}
    </Badge>
  );
}
