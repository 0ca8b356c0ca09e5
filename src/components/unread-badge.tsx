import { NOT_IN_SNAPSHOT } from './new-badge';

/**
 * "N new": replies that arrived since the member last read the post, on any device. Kept out of the
 * forum snapshot: by the next start the member may have read them elsewhere.
 */
export function UnreadBadge({ count }: { count: number }) {
  return (
    <span className="badge text-bg-info app-unread-badge" {...{ [NOT_IN_SNAPSHOT]: '' }}>
      {count.toLocaleString('en-US')} new
    </span>
  );
}
