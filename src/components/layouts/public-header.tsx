import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { NavbarFrame } from './navbar-frame';
import { NavItem } from './nav-item';

/** Header of the public pages: Home, About Us, then Login and Join Now, or Go to Forum when signed in. */
export function PublicHeader({ signedIn }: { signedIn: boolean }) {
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
              <NavItem to={paths.login} end>
                Login
              </NavItem>
              <li className="nav-item ms-md-2">
                <Link className="btn btn-primary" to={paths.signup}>
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
