import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageLoading } from '../../components/page-loading';
import { paths } from '../../config/paths';
import { useAuth } from './auth-context';

/**
 * The protected area: visitors go to /login. While the stored session is being read, none of
 * the protected screens render, only a Loading... placeholder.
 */
export function RequireAuth() {
  const { user, loading, signedOutElsewhere, signedOutEmail } = useAuth();
  const location = useLocation();
  if (loading) return <PageLoading label="Loading..." />;
  if (!user)
    return <Navigate to={paths.login} replace state={{ from: location.pathname + location.search, signedOutElsewhere, signedOutEmail }} />;
  return <Outlet />;
}
