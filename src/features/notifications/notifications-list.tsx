import { Link } from 'react-router-dom';
import { IconBell } from '@tabler/icons-react';
import { AdminBadge } from '../../components/author-name';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { markRead } from '../../db/notifications/notifications';
import type { ShownNotification } from '../../db/notifications/notification-rows';
import { Age } from '../../components/age';
import { notificationDetail, notificationPath, notificationTitle } from '../../shared/moderation';
import { useNotifications } from './use-notifications';

/** A notification's line, its actor's name with the Admin badge when the admin did it. */
function NotificationTitle({ notification }: { notification: ShownNotification }) {
  const title = notificationTitle(notification);
  const { actor } = notification;
  if (!actor || notification.actorRole !== 'admin' || !title.startsWith(actor))
    return <span className="app-notification-title">{title}</span>;
  return (
    <span className="app-notification-title">
      {actor} <AdminBadge />
      {title.slice(actor.length)}
    </span>
  );
}

/** The member's notifications, newest first; unread ones marked (and said); opening one marks it read. */
export function NotificationsList() {
  const items = useNotifications();
  if (!items) return <PageLoading label="Loading notifications..." />;
  if (items.length === 0) {
    return (
      <EmptyState icon={<IconBell size={40} />} title="No notifications yet">
        You'll hear here when your posts are reviewed or someone replies.
      </EmptyState>
    );
  }
  return (
    <ul className="app-notifications" aria-label="Notifications">
      {items.map((notification) => {
        const unread = notification.readAt === null;
        const detail = notificationDetail(notification);
        return (
          <li key={notification.id} className={`app-notification${unread ? ' is-unread' : ''}`}>
            <Link
              to={notificationPath(notification)}
              className="app-notification-link"
              onClick={() => {
                if (unread) void markRead([notification.id]).catch(() => undefined);
              }}
            >
              {unread && <span className="badge text-bg-primary app-unread">Unread</span>}
              <NotificationTitle notification={notification} />
            </Link>
            {detail && <p className="app-notification-detail">{detail}</p>}
            <Age at={notification.createdAt} className="app-notification-time" />
          </li>
        );
      })}
    </ul>
  );
}
