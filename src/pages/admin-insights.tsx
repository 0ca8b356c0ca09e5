import { useEffect } from 'react';
import '../features/insights/insights.scss';
import { Link } from 'react-router-dom';
import { IconArrowLeft } from '@tabler/icons-react';
import { ErrorBoundary } from '../components/error-boundary';
import { paths } from '../config/paths';
import { InsightsScreen } from '../features/insights/insights-screen';

/** Admins: how the forum and its moderation are doing. */
export function AdminInsightsPage() {
  useEffect(() => {
    document.title = 'Insights · Insight Exchange';
  }, []);
  return (
    <div className="container app-page-body">
      <Link to={paths.admin} className="app-back-link">
        <IconArrowLeft aria-hidden="true" size={18} />
        <span>Back to moderation</span>
      </Link>
      <div className="app-page-title">
        <h1 className="h2 mb-1">Insights</h1>
        <p className="text-body-secondary mb-0">How the forum and its review queue are doing.</p>
      </div>
      <ErrorBoundary area="the insights">
        <InsightsScreen />
      </ErrorBoundary>
    </div>
  );
}
