import { useEffect } from 'react';
import '../features/notifications/notifications.scss';
import { ErrorBoundary } from '../components/error-boundary';
import { MarkAllRead } from '../features/notifications/mark-all-read';
import { NotificationsList } from '../features/notifications/notifications-list';
import { SystemNotifications } from '../features/notifications/system-notifications';
import { CatchingUp } from '../components/catching-up';

/** The member's notifications, and the switch for system notifications on this device. */
export function NotificationsPage() {
  useEffect(() => {
    document.title = 'Notifications · Insight Exchange';
  }, []);
  return (
    <div className="container app-page-body">
      <div className="app-page-title app-notifications-title">
        <h1 className="h2 mb-0">Notifications</h1>
        <MarkAllRead />
      </div>
      <div className="row g-4">
        <section className="col-lg-8" aria-label="Your notifications">
          <ErrorBoundary area="your notifications">
            <CatchingUp />
            <NotificationsList />
          </ErrorBoundary>
        </section>
        <aside className="col-lg-4" aria-label="Notification settings">
          <SystemNotifications />
        </aside>
      </div>
    </div>
  );
}
