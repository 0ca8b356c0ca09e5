import Badge from 'react-bootstrap/Badge';
import { ErrorBoundary } from '../components/error-boundary';
import { BackupPanel } from '../features/admin/backup-panel';
import { PendingQueue } from '../features/admin/pending-queue';
import { usePendingCount } from '../features/admin/use-pending-posts';
import { formatCount } from '../lib/format';

/** The admin's review queue: approve or reject what members submitted. */
export function AdminPage() {
  const count = usePendingCount();
  return (
    <div className="container app-page-body">
      <div className="app-page-title">
        <h1 className="h2 mb-1">
          Pending Posts{' '}
          {count !== undefined && (
            <Badge bg="warning" text="dark" className="align-middle fs-6">
              <span className="visually-hidden">Waiting: </span>
              {formatCount(count)}
            </Badge>
          )}
        </h1>
        <p className="text-body-secondary mb-0">
          Approved posts appear in the forum at once; rejected ones stay visible only to their author.
        </p>
      </div>
      <div className="row g-4">
        <section className="col-lg-8" aria-label="Review queue">
          <ErrorBoundary area="the review queue">
            <PendingQueue />
          </ErrorBoundary>
        </section>
        <aside className="col-lg-4" aria-label="Admin tools">
          <div className="app-sidebar">
            <BackupPanel />
          </div>
        </aside>
      </div>
    </div>
  );
}
