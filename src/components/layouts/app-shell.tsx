import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { IconLogout, IconPlus } from '@tabler/icons-react';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { Brand } from '../brand';
import { paths } from '../../config/paths';
import { SkipLink } from './skip-link';
import { useCollapseOnNavigate } from './use-collapse-on-navigate';

interface AppShellProps {
  isAdmin: boolean;
  onNewPost: () => void;
  /** Called on hover or focus of New Post, to start loading the form. */
  onNewPostIntent: () => void;
  onLogout: () => void;
  /** Status items for the header (offline badge, install button). */
  status?: ReactNode;
  banner?: ReactNode;
  children?: ReactNode;
}

/**
 * The protected area's frame: the forum header (Forum, Admin for admins, Profile, New Post and
 * the Log out icon), collapsing into a menu on a phone, then the page.
 */
export function AppShell({ isAdmin, onNewPost, onNewPostIntent, onLogout, status, banner, children }: AppShellProps) {
  const [expanded, setExpanded] = useCollapseOnNavigate();
  const newPostButton = (className: string) => (
    <Button variant="warning" className={`app-new-post ${className}`} onClick={onNewPost} onPointerEnter={onNewPostIntent} onFocus={onNewPostIntent}>
      <IconPlus aria-hidden="true" size={18} />
      <span>New Post</span>
    </Button>
  );
  return (
    <div className="app-page">
      <SkipLink />
      <header className="app-header">
        <Navbar expand="md" variant="dark" className="app-navbar app-navbar-forum" expanded={expanded} onToggle={setExpanded}>
          <Container>
            <Navbar.Brand as={Link} to={paths.forum} className="app-brand-compact">
              <Brand light />
            </Navbar.Brand>
            <div className="app-navbar-quick d-md-none">
              {status}
              {newPostButton('')}
            </div>
            <Navbar.Toggle aria-controls="forum-nav" label="Menu" />
            <Navbar.Collapse id="forum-nav">
              <Nav as="ul" className="me-auto app-nav">
                <Nav.Item as="li">
                  <Nav.Link as={NavLink} to={paths.forum}>
                    Forum
                  </Nav.Link>
                </Nav.Item>
                {isAdmin && (
                  <Nav.Item as="li">
                    <Nav.Link as={NavLink} to={paths.admin}>
                      Admin
                    </Nav.Link>
                  </Nav.Item>
                )}
                <Nav.Item as="li">
                  <Nav.Link as={NavLink} to={paths.profile}>
                    Profile
                  </Nav.Link>
                </Nav.Item>
              </Nav>
              <div className="app-navbar-actions">
                <span className="d-none d-md-inline-flex align-items-center gap-2">{status}</span>
                {newPostButton('d-none d-md-inline-flex')}
                <Button variant="link" className="app-logout" aria-label="Log out" title="Log out" onClick={onLogout}>
                  <IconLogout aria-hidden="true" size={20} />
                  <span className="d-md-none" aria-hidden="true">
                    Log out
                  </span>
                </Button>
              </div>
            </Navbar.Collapse>
          </Container>
        </Navbar>
      </header>
      {banner}
      <main id="main" className="app-main" tabIndex={-1}>
        {children ?? <Outlet />}
      </main>
    </div>
  );
}
