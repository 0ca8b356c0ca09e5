import { Link, useLocation } from 'react-router-dom';
import { paths } from '../../config/paths';
import { NavbarFrame } from './navbar-frame';
import { NavItem } from './nav-item';

/** Header of the public pages: Home, About Us, then Login and Join Now, or Go to Forum when signed in. */
export function PublicHeader({ signedIn }: { signedIn: boolean }) {
  // /login?mode=signup is Create Account: Join Now's page, not Login's.
  const { pathname, search } = useLocation();
  const signingUp = pathname === paths.login && new URLSearchParams(search).get('mode') === 'signup';
  return (
    <header className="app-header">
      <NavbarFrame id="public-nav" brandTo={paths.home}>
        <ul className="navbar-nav ms-auto align-items-md-center app-nav">
          <NavItem to={paths.home} end>
            Home
          </NavItem>
          <NavItem to={paths.about}>About Us</NavItem>
          {signedIn ? (
            <li className="nav-item ms-md-2">
              <Link className="btn btn-primary" to={paths.forum}>
                Go to Forum
              </Link>
            </li>
          ) : (
            <>
              <NavItem to={paths.login} end elsewhere={signingUp}>
                Login
              </NavItem>
              <li className="nav-item ms-md-2">
                <Link className="btn btn-primary" to={paths.signup} aria-current={signingUp ? 'page' : undefined}>
                  Join Now
                </Link>
              </li>
            </>
          )}
        </ul>
      </NavbarFrame>
    </header>
  );
}
