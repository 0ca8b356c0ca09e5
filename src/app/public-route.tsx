import { OutdatedBanner } from '../components/outdated-banner';
import { PublicLayout } from '../components/layouts/public-layout';
import { useAuth } from '../features/auth/auth-context';
import { UpdatePrompt } from '../features/pwa/update-prompt';
import { useDataStatus } from './data-status';

/** The public layout, told whether someone is signed in. */
export function PublicRoute() {
  const { isAuthenticated } = useAuth();
  const { status } = useDataStatus();
  return <PublicLayout signedIn={isAuthenticated} banner={status === 'outdated' ? <OutdatedBanner /> : <UpdatePrompt />} />;
}
