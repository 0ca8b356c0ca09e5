import { useId } from 'react';
import { IconBell } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { unreadDescription } from '../../shared/waiting-words';

/** The header's bell: opens /notifications; the unread count is a badge and the button's description. */
export function NotificationsButton({ unread, className = '' }: { unread: number | undefined; className?: string }) {
  const id = useId();
  const navigate = useNavigate();
  return (
    <>
      <button
        type="button"
        className={`btn btn-link app-bell ${className}`}
        aria-label="Notifications"
        title="Notifications"
        aria-describedby={unread !== undefined ? id : undefined}
        onClick={() => void navigate(paths.notifications)}
      >
        <IconBell aria-hidden="true" size={20} />
        {unread !== undefined && unread > 0 && (
          <span className="badge rounded-pill text-bg-danger app-bell-badge" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {unread !== undefined && (
        <span id={id} hidden>
          {unreadDescription(unread)}
        </span>
      )}
    </>
  );
}
