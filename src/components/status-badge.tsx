import type { PostStatus } from '../db/types';

const styles: Record<PostStatus, string> = {
  pending: 'text-bg-warning',
  approved: 'text-bg-success',
  rejected: 'text-bg-danger',
};

/** The status of a post in words: pending, approved or rejected. */
export function StatusBadge({ status }: { status: PostStatus }) {
  return <span className={`badge app-status-badge ${styles[status]}`}>{status}</span>;
}
