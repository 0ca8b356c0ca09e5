import type { ReactNode } from 'react';
import { IconLogout, IconPlus } from '@tabler/icons-react';
import { paths } from '../../config/paths';
import { pendingDescription, unreadMessagesDescription } from '../../shared/waiting-words';
import { NavbarFrame } from './navbar-frame';
import { CountedNavItem } from './counted-nav-item';
import { NavItem } from './nav-item';
import { NotificationsButton } from './notifications-button';
import { SkipLink } from './skip-link';
import { ScreenOutlet } from './screen-outlet';
import { FIRST_FRAME_CLASS } from '../../db/storage/first-frame';

interface AppShellProps {
  isAdmin: boolean;
  /** What waits for an admin: posts to review and flagged items (undefined while counting). */
  review?: { pending: number; flagged: number };
  /** The member's unread notifications (undefined while counting). */
  unreadCount?: number;
  /** The member's unread messages (undefined while counting). */
  unreadMessages?: number;
  /** Opens New Post; absent while the member is silenced (the banner says why, in its place). */
  onNewPost?: () => void;
  /** Called on hover or focus of New Post, to start loading the form. */
  onNewPostIntent: () => void;
  onLogout: () => void;
  /** Log out is sending the member's queued changes first (up to 5 s): the button says so and waits. */
  loggingOut?: boolean;
  /** Status items for the header (offline badge, install button). */
  status?: ReactNode;
  banner?: ReactNode;
  children?: ReactNode;
  /** The forum's first frame (db/storage/first-frame.ts): inert, and marked so the live page can wait out of sight. */
  frame?: boolean;
}

/**
 * The protected area's frame: the forum header (Forum, Admin for admins, Profile, New Post and
 * the Log out icon), collapsing into a menu on a phone, then the page.
 */
export function AppShell({
  isAdmin,
  review,
  unreadCount,
  unreadMessages,
  onNewPost,
  onNewPostIntent,
  onLogout,
  loggingOut = false,
  status,
  banner,
  children,
  frame = false,
}: AppShellProps) {
  const newPostButton = (className: string) =>
    onNewPost && (
      <button
        type="button"
        className={`btn btn-warning app-new-post ${className}`}
        onClick={onNewPost}
        onPointerEnter={onNewPostIntent}
        onFocus={onNewPostIntent}
      >
        <IconPlus aria-hidden="true" size={18} />
        <span>New Post</span>
      </button>
    );
  // What the closed menu holds that waits: unread messages, and posts and flags to review (an admin's).
  const menuNote =
    [
      unreadMessages ? unreadMessagesDescription(unreadMessages) : '',
      isAdmin && review && review.pending + review.flagged > 0 ? pendingDescription(review.pending, review.flagged) : '',
    ]
      .filter(Boolean)
      .join('; ') || undefined;
  return (
    <div className={frame ? `app-page ${FIRST_FRAME_CLASS}` : 'app-page'} inert={frame || undefined}>
      <SkipLink />
      <header className="app-header">
        <NavbarFrame
          id="forum-nav"
          dark
          brandTo={paths.forum}
          note={menuNote}
          quick={
            // The status is one element: here, beside the toggle on a phone (never inside the
            // closed menu); from md up, the CSS lays it out among the menu's items, where it always was.
            <div className="app-navbar-quick">
              {status}
              <span className="d-md-none">
                <NotificationsButton unread={unreadCount} />
              </span>
              {newPostButton('d-md-none app-new-post-compact')}
            </div>
          }
        >
          <ul className="navbar-nav me-auto app-nav">
            <NavItem to={paths.forum}>Forum</NavItem>
            {isAdmin && (
              <CountedNavItem
                to={paths.admin}
                count={review && review.pending + review.flagged}
                description={review && pendingDescription(review.pending, review.flagged)}
              >
                Admin
              </CountedNavItem>
            )}
            <CountedNavItem
              to={paths.messages}
              count={unreadMessages}
              description={unreadMessages === undefined ? undefined : unreadMessagesDescription(unreadMessages)}
            >
              Messages
            </CountedNavItem>
            <NavItem to={paths.profile}>Profile</NavItem>
          </ul>
          <div className="app-navbar-actions">
            <span className="d-none d-md-inline-flex">
              <NotificationsButton unread={unreadCount} />
            </span>
            {newPostButton('d-none d-md-inline-flex')}
            <button
              type="button"
              className="btn btn-link app-logout"
              aria-label="Log out"
              aria-busy={loggingOut || undefined}
              aria-describedby={loggingOut ? 'app-logout-sending' : undefined}
              disabled={loggingOut}
              title={loggingOut ? 'Sending your changes before you log out…' : 'Log out'}
              onClick={onLogout}
            >
              {loggingOut ? (
                <span className="spinner-border spinner-border-sm" aria-hidden="true" />
              ) : (
                <IconLogout aria-hidden="true" size={20} />
              )}

              <span className="d-md-none" aria-hidden="true">
                Log out
              </span>
            </button>
            {loggingOut && (
              <span id="app-logout-sending" className="visually-hidden" role="status">
                Sending your changes before you log out…
              </span>
            )}
          </div>
        </NavbarFrame>
      </header>
      {banner}
      <main id="main" className="app-main" tabIndex={-1}>
        {children ?? <ScreenOutlet />}
      </main>
    </div>
  );
}
