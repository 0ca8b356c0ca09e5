import { Navigate, Outlet } from 'react-router-dom';
import { PageLoading } from '../../components/page-loading';
import { paths } from '../../config/paths';
import { useAuth } from './auth-context';

/** The admin area: anyone but an admin goes to /; shows Loading... while the session is read. */
export function RequireAdmin() {
  const { user, loading } = useAuth();
  if (loading) return <PageLoading label="Loading..." />;
  if (user?.role !== 'admin') return <Navigate to={paths.home} replace />;
  return <Outlet />;
}
