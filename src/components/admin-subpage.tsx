import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { IconArrowLeft } from '@tabler/icons-react';
import { ErrorBoundary } from './error-boundary';
import { paths } from '../config/paths';

/** A page under /admin (insights, the staff log): back to moderation, its title and lead, its screen guarded. */
export function AdminSubpage({ title, lead, area, children }: { title: string; lead: string; area: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Insight Exchange`;
  }, [title]);
  return (
    <div className="container app-page-body">
      <Link to={paths.admin} className="app-back-link">
        <IconArrowLeft aria-hidden="true" size={18} />
        <span>Back to moderation</span>
      </Link>
      <div className="app-page-title">
        <h1 className="h2 mb-1">{title}</h1>
        <p className="text-body-secondary mb-0">{lead}</p>
      </div>
      <ErrorBoundary area={area}>{children}</ErrorBoundary>
    </div>
  );
}
