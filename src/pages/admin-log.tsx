import { useEffect } from 'react';
import '../features/admin/admin.scss';
import { Link } from 'react-router-dom';
import { IconArrowLeft } from '@tabler/icons-react';
import { ErrorBoundary } from '../components/error-boundary';
import { paths } from '../config/paths';
import { StaffLog } from '../features/admin/staff-log';

/** Admins: every staff action, newest first (kept on the server). */
export function AdminLogPage() {
  useEffect(() => {
    document.title = 'Staff log · Insight Exchange';
  }, []);
  return (
    <div className="container app-page-body">
      <Link to={paths.admin} className="app-back-link">
        <IconArrowLeft aria-hidden="true" size={18} />
        <span>Back to moderation</span>
      </Link>
      <div className="app-page-title">
        <h1 className="h2 mb-1">Staff log</h1>
        <p className="text-body-secondary mb-0">Every review, hide, deletion, suspension and change of a limit, newest first.</p>
      </div>
      <ErrorBoundary area="the staff log">
        <StaffLog />
      </ErrorBoundary>
    </div>
  );
}
