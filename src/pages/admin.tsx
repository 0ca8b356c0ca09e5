import { Link, useSearchParams } from 'react-router-dom';
import '../features/admin/admin.scss';
import Badge from 'react-bootstrap/Badge';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { IconChartBar } from '@tabler/icons-react';
import { ErrorBoundary } from '../components/error-boundary';
import { paths } from '../config/paths';
import { BackupPanel } from '../features/admin/backup-panel';
import { FlagsQueue } from '../features/admin/flags-queue';
import { PendingQueue } from '../features/admin/pending-queue';
import { useFlaggedCount } from '../features/admin/use-flags';
import { usePendingCount } from '../features/admin/use-pending-posts';
import { formatCount } from '../lib/format';

type AdminTab = 'pending' | 'flags';

/** The admin's screen: the review queue and the Flags queue as tabs (the tab in the address), the tools beside them. */
export function AdminPage() {
  const count = usePendingCount();
  const flagged = useFlaggedCount();
  const [params, setParams] = useSearchParams();
  const tab: AdminTab = params.get('tab') === 'flags' ? 'flags' : 'pending';
  const select = (key: string | null) => setParams(key === 'flags' ? { tab: 'flags' } : {}, { replace: true, preventScrollReset: true });

  return (
    <div className="container app-page-body">
      <div className="app-page-title app-admin-title">
        <div>
          <h1 className="h2 mb-1">Moderation</h1>
          <p className="text-body-secondary mb-0">
            Approved posts appear in the forum at once; rejected ones stay visible only to their author.
          </p>
        </div>
        <Link to={paths.adminInsights} className="btn btn-outline-primary app-insights-link">
          <IconChartBar aria-hidden="true" size={18} />
          <span>Insights</span>
        </Link>
      </div>
      <div className="row g-4">
        <div className="col-lg-8">
          <Tabs id="admin-tabs" activeKey={tab} onSelect={select} className="app-admin-tabs mb-3" mountOnEnter unmountOnExit>
            <Tab
              eventKey="pending"
              title={
                <>
                  Pending Posts
                  {count !== undefined && count > 0 && (
                    <span className="badge rounded-pill text-bg-warning ms-2" aria-hidden="true">
                      {formatCount(count)}
                    </span>
                  )}
                </>
              }
            >
              <section aria-labelledby="pending-title">
                <h2 id="pending-title" className="h4 mb-3">
                  Pending Posts{' '}
                  {count !== undefined && (
                    <Badge bg="warning" text="dark" className="align-middle fs-6">
                      <span className="visually-hidden">Waiting: </span>
                      {formatCount(count)}
                    </Badge>
                  )}
                </h2>
                <ErrorBoundary area="the review queue">
                  <PendingQueue keys={tab === 'pending'} />
                </ErrorBoundary>
              </section>
            </Tab>
            <Tab
              eventKey="flags"
              title={
                <>
                  Flags
                  {flagged !== undefined && (
                    // Its name stays "Flags" (PRODUCT.md), as the Pending Posts tab's does; the panel says how many.
                    <span className={`badge rounded-pill ms-2 ${flagged > 0 ? 'text-bg-danger' : 'text-bg-secondary'}`} aria-hidden="true">
                      {formatCount(flagged)}
                    </span>
                  )}
                </>
              }
            >
              <section aria-labelledby="flags-title">
                <h2 id="flags-title" className="h4 mb-3" tabIndex={-1}>
                  Flagged posts and replies
                </h2>
                <ErrorBoundary area="the Flags queue">
                  <FlagsQueue />
                </ErrorBoundary>
              </section>
            </Tab>
          </Tabs>
        </div>
        <aside className="col-lg-4" aria-label="Admin tools">
          <div className="app-sidebar">
            <BackupPanel />
          </div>
        </aside>
      </div>
    </div>
  );
}
