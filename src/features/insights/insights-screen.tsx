import { useMemo, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { IconAlertCircle, IconCloud, IconDeviceLaptop } from '@tabler/icons-react';
import { PageLoading } from '../../components/page-loading';
import { errorToast } from '../../components/toast/error-toast';
import { formatCount, formatDuration, formatFullDate, plural } from '../../lib/format';
import type { Insights } from '../../shared/insights';
import { Chart, type ChartSeries } from './chart';
import { useInsights } from './use-insights';
import { useCategoryNameOf } from '../../hooks/use-categories';

/** "2026-11-23" → "23 Nov" (UTC, as the computation counts). */
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

function Card({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  const id = `insight-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <div className={wide ? 'col-12' : 'col-12 col-md-6'}>
      <section className="card h-100 app-insight" aria-labelledby={id}>
        <div className="card-body">
          <h2 id={id} className="h6 app-insight-title">
            {title}
          </h2>
          {children}
        </div>
      </section>
    </div>
  );
}

/**
 * Posts per category as horizontal bars (every category named at every width, unlike a column
 * chart's axis at 390 px): each row its posts, of which approved, as text a screen reader reads.
 */
function CategoryBars({ rows }: { rows: Insights['postsPerCategory'] }) {
  // Named as the forum names them: a category the admins made is kept by its id.
  const nameOf = useCategoryNameOf();
  const most = Math.max(1, ...rows.map((row) => row.posts));
  const share = (count: number) => `${(count / most) * 100}%`;
  return (
    <>
      <ul className="app-category-bars" aria-label="Posts per category">
        {rows.map((row) => (
          <li key={row.category}>
            <span className="app-category-name">{nameOf(row.category)}</span>
            <span className="app-category-track" aria-hidden="true">
              <span className="app-category-posts" style={{ width: share(row.posts) }} />
              <span className="app-category-approved" style={{ width: share(row.approved) }} />
            </span>
            <span className="app-category-count">
              {formatCount(row.posts)} <span className="text-body-secondary">({formatCount(row.approved)} approved)</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="app-category-key small text-body-secondary mb-0" aria-hidden="true">
        <span className="app-category-swatch app-category-posts" /> Posts <span className="app-category-swatch app-category-approved" />{' '}
        Approved
      </p>
    </>
  );
}

function Figures({ insights }: { insights: Insights }) {
  const { reviewTime } = insights;
  const weeks = useMemo(() => insights.perWeek.map((row) => shortDay(row.week)), [insights]);
  const weekSeries = useMemo<ChartSeries[]>(
    () => [
      { label: 'Posts', values: insights.perWeek.map((row) => row.posts), color: '--app-accent' },
      { label: 'Likes', values: insights.perWeek.map((row) => row.likes), color: '--bs-danger' },
    ],
    [insights],
  );
  const days = useMemo(() => insights.queue.map((row) => shortDay(row.day)), [insights]);
  const queueSeries = useMemo<ChartSeries[]>(
    () => [{ label: 'Waiting', values: insights.queue.map((row) => row.pending), color: '--bs-warning-text-emphasis' }],
    [insights],
  );
  return (
    <div className="row g-3">
      <Card title="Time to review" wide>
        {reviewTime.reviewed === 0 || reviewTime.medianMs === null ? (
          <p className="text-body-secondary mb-0">No reviewed posts with known times yet.</p>
        ) : (
          <>
            <dl className="app-figures">
              <div>
                <dt>Median</dt>
                <dd>{formatDuration(reviewTime.medianMs)}</dd>
              </div>
              <div>
                <dt>90th percentile</dt>
                <dd>{formatDuration(reviewTime.p90Ms ?? reviewTime.medianMs)}</dd>
              </div>
            </dl>
            <p className="small text-body-secondary mb-0">
              From submission to review, over {plural(reviewTime.reviewed, 'reviewed post')}.
            </p>
          </>
        )}
      </Card>
      <Card title="Posts per category" wide>
        <CategoryBars rows={insights.postsPerCategory} />
      </Card>
      <Card title="Posts and likes per week" wide>
        <Chart title="Posts and likes per week" labels={weeks} series={weekSeries} kind="lines" labelHeading="Week of" />
      </Card>
      <Card title="Review queue, last 30 days" wide>
        <Chart title="Posts waiting for review, last 30 days" labels={days} series={queueSeries} kind="lines" labelHeading="Day" />
      </Card>
    </div>
  );
}

/** /admin/insights: review times, posts per category, posts and likes per week, the queue over 30 days. */
export function InsightsScreen() {
  const result = useInsights();
  if (result.state === 'loading') return <PageLoading label="Computing insights..." />;
  if (result.state === 'error') {
    const { title, description } = errorToast(result.error);
    return (
      <div className="alert alert-danger d-flex gap-3 align-items-start" role="alert">
        <IconAlertCircle aria-hidden="true" size={22} className="flex-shrink-0" />
        <div>
          <p className="fw-semibold mb-1">Insights could not be loaded: {title}</p>
          <p className="mb-2">{description}</p>
          <Button size="sm" variant="outline-danger" onClick={result.retry}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  const { insights } = result;
  const server = insights.source === 'server';
  return (
    <>
      <p className="app-insights-source">
        {server ? <IconCloud aria-hidden="true" size={18} /> : <IconDeviceLaptop aria-hidden="true" size={18} />}
        <span>{server ? 'Computed by the server' : 'Computed on this device'}</span>
        <span className="text-body-secondary">({formatFullDate(insights.computedAt)})</span>
      </p>
      <Figures insights={insights} />
    </>
  );
}
