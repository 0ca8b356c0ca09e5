import { IconFileOff } from '@tabler/icons-react';
import { BackToForum } from './back-to-forum';

/** What a post's page says when there is no post to show this member (removed, pending, a wrong address). */
export function PostUnavailable() {
  return (
    <div className="app-empty text-center app-unavailable">
      <div className="app-empty-icon" aria-hidden="true">
        <IconFileOff size={40} />
      </div>
      <h1 className="h4 mb-2">Post not available</h1>
      <p className="text-body-secondary mb-3">It may have been removed, or it isn&apos;t visible to you.</p>
      <BackToForum className="btn btn-primary app-icon-button" />
    </div>
  );
}
