import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { PageLoading } from '../../components/page-loading';
import { paths } from '../../config/paths';
import { useAuth } from './auth-context';

/**
 * The admin area: anyone but an admin goes to /. Shows Loading... while the session is read and,
 * for anyone not (yet) an admin, until the device's mode says whose word the role is: on a
 * connected device the server's, so an admin address set on the server is an admin here too.
 */
export function RequireAdmin() {
  const { user, loading, roleSettled } = useAuth();
  const waiting = loading || (user !== null && user.role !== 'admin' && !roleSettled);
  useEffect(() => {
    if (waiting && !loading) void import('../../sync/mode').then(({ detectMode }) => detectMode()).catch(() => undefined);
  }, [waiting, loading]);
  if (waiting) return <PageLoading label="Loading..." />;
  if (user?.role !== 'admin') return <Navigate to={paths.home} replace />;
  return <Outlet />;
}
