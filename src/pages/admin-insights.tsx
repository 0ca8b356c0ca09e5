import '../features/insights/insights.scss';
import { AdminSubpage } from '../components/admin-subpage';
import { InsightsScreen } from '../features/insights/insights-screen';

export { preloadCharts } from '../features/insights/chart';

/** Admins: how the forum and its moderation are doing. */
export function AdminInsightsPage() {
  return (
    <AdminSubpage title="Insights" lead="How the forum and its review queue are doing." area="the insights">
      <InsightsScreen />
    </AdminSubpage>
  );
}
