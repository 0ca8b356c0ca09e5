import { useNavigate } from 'react-router-dom';
import { paths } from '../config/paths';
import { useAuth } from '../features/auth/auth-context';
import { MyPosts } from '../features/profile/my-posts';
import { ProfileCard } from '../features/profile/profile-card';
import { useNewPost } from '../features/posting/new-post-context';
import { ErrorBoundary } from '../components/error-boundary';
import { ExportPanel } from '../features/profile/export-panel';
import { StoragePanel } from '../features/profile/storage-panel';
import { SavedPosts } from '../features/profile/saved-posts';
import { YourGroups } from '../features/profile/your-groups';
import { ThemeControl } from '../features/profile/theme-control';
import { FollowingPanel } from '../features/profile/following-panel';
import { AccountPanels } from '../features/profile/account-panel';
import { TwoStepPanel } from '../features/profile/two-step-panel';
import { PasskeysPanel } from '../features/profile/passkeys-panel';

/** The member's profile: who they are and everything they posted, with its status. */
export function ProfilePage() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const { open, edit } = useNewPost();
  if (!user) return null;
  return (
    <div className="container app-page-body">
      <ProfileCard user={user} />
      <div className="row g-4 mt-1">
        <div className="col-lg-8">
          <ErrorBoundary area="your posts">
            <MyPosts viewer={user} onWrite={open} onEdit={edit} />
          </ErrorBoundary>
        </div>
        <aside className="col-lg-4" aria-label="Your settings and data">
          <div className="app-sidebar">
            <SavedPosts email={user.email} />
            <YourGroups />
            <FollowingPanel />
            <ThemeControl email={user.email} />
            <AccountPanels
              admin={user.role === 'admin'}
              onDeleted={async () => {
                // The account is gone: nothing more can reach the server.
                await logout({ force: true });
                navigate(paths.home);
              }}
            />
            <TwoStepPanel email={user.email} />
            <PasskeysPanel />
            <StoragePanel email={user.email} />
            <ExportPanel />
          </div>
        </aside>
      </div>
    </div>
  );
}
