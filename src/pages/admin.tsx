import { lazy, Suspense, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import '../features/admin/admin.scss';
import Badge from 'react-bootstrap/Badge';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { IconChartBar, IconHistory } from '@tabler/icons-react';
import { ErrorBoundary } from '../components/error-boundary';
import { PageLoading } from '../components/page-loading';
import { paths } from '../config/paths';
import { BackupPanel } from '../features/admin/backup-panel';
import { FlagsQueue } from '../features/admin/flags-queue';
import { MessageFlagsPanel } from '../features/admin/message-flags-panel';
import { PendingQueue } from '../features/admin/pending-queue';
import { SecurityPanel } from '../features/admin/security-panel';
import { useFlaggedCount } from '../features/admin/use-flags';
import { usePendingCount } from '../features/admin/use-pending-posts';
import { formatCount } from '../lib/format';
import { useFirstSync } from '../hooks/use-first-sync';

// The Members tab talks to the server (the API client and its schemas): its code loads when it opens.
const MembersPanel = lazy(() => import('../features/admin/members-panel').then((module) => ({ default: module.MembersPanel })));
// The Groups tab (issue 61) too.
const GroupsPanel = lazy(() => import('../features/admin/groups-panel').then((module) => ({ default: module.GroupsPanel })));
const CategoriesPanel = lazy(() => import('../features/admin/categories-panel').then((module) => ({ default: module.CategoriesPanel })));

type AdminTab = 'pending' | 'flags' | 'members' | 'groups' | 'categories';
const TABS: readonly AdminTab[] = ['pending', 'flags', 'members', 'groups', 'categories'];

/** The admin's screen: the review queue, the Flags queue and the Members as tabs (the tab in the address), the tools beside them. */
export function AdminPage() {
  // Counted once this device's first sync has finished: before it, 0 would read as "nothing waits".
  const synced = useFirstSync() === 'done';
  const pending = usePendingCount();
  const flaggedHere = useFlaggedCount();
  const count = synced ? pending : undefined;
  const flagged = synced ? flaggedHere : undefined;
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') as AdminTab | null;
  const tab: AdminTab = asked && TABS.includes(asked) ? asked : 'pending';
  const select = (key: string | null) =>
    setParams(key && key !== 'pending' && TABS.includes(key as AdminTab) ? { tab: key } : {}, { replace: true, preventScrollReset: true });
  // On a phone the row of tabs scrolls within itself: the chosen one is brought whole into it (a
  // trial opened Groups from its address and could not see which tab was chosen). The row only, not the page.
  // Again once the first sync brings the tabs' counts (they widen the tabs before it); not at every
  // later count, which would pull the row back while the admin scrolls it.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const chosen = document.getElementById(`admin-tabs-tab-${tab}`);
      const row = chosen?.closest('.nav');
      if (!chosen || !(row instanceof HTMLElement)) return;
      const { left, right } = chosen.getBoundingClientRect();
      const box = row.getBoundingClientRect();
      if (left < box.left) row.scrollLeft -= box.left - left;
      else if (right > box.right) row.scrollLeft += right - box.right;
    });
    return () => cancelAnimationFrame(frame);
  }, [tab, synced]);

  return (
    <div className="container app-page-body">
      <div className="app-page-title app-admin-title">
        <div>
          <h1 className="h2 mb-1">Moderation</h1>
          <p className="text-body-secondary mb-0">
            Approved posts appear in the forum at once; rejected ones stay visible only to their author.
          </p>
        </div>
        <div className="app-admin-links">
          <Link to={paths.adminLog} className="btn btn-outline-secondary app-insights-link">
            <IconHistory aria-hidden="true" size={18} />
            <span>Staff log</span>
          </Link>
          <Link to={paths.adminInsights} className="btn btn-outline-primary app-insights-link">
            <IconChartBar aria-hidden="true" size={18} />
            <span>Insights</span>
          </Link>
        </div>
      </div>
      <div className="row g-4">
        <div className="col-lg-8 app-admin-panels">
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
                <ErrorBoundary area="the flagged messages">
                  <MessageFlagsPanel />
                </ErrorBoundary>
              </section>
            </Tab>
            <Tab eventKey="members" title="Members">
              <section aria-labelledby="members-title">
                <h2 id="members-title" className="h4 mb-3" tabIndex={-1}>
                  Members
                </h2>
                <ErrorBoundary area="the Members tab">
                  <Suspense fallback={<PageLoading label="Loading members..." />}>
                    <MembersPanel />
                  </Suspense>
                </ErrorBoundary>
              </section>
            </Tab>
            <Tab eventKey="groups" title="Groups">
              <section aria-labelledby="groups-title">
                <h2 id="groups-title" className="h4 mb-3" tabIndex={-1}>
                  Groups
                </h2>
                <ErrorBoundary area="the Groups tab">
                  <Suspense fallback={<PageLoading label="Loading groups..." />}>
                    <GroupsPanel />
                  </Suspense>
                </ErrorBoundary>
              </section>
            </Tab>
            <Tab eventKey="categories" title="Categories">
              <section aria-labelledby="categories-title">
                <h2 id="categories-title" className="h4 mb-3" tabIndex={-1}>
                  Categories
                </h2>
                <ErrorBoundary area="the Categories tab">
                  <Suspense fallback={<PageLoading label="Loading categories..." />}>
                    <CategoriesPanel />
                  </Suspense>
                </ErrorBoundary>
              </section>
            </Tab>
          </Tabs>
        </div>
        <aside className="col-lg-4" aria-label="Admin tools">
          <div className="app-sidebar">
            <SecurityPanel />
            <BackupPanel />
          </div>
        </aside>
      </div>
    </div>
  );
}
