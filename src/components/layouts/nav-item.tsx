import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';

/**
 * One link of a navbar; NavLink marks the current page as active, unless `elsewhere` says the page
 * at its path is another one (/login's Create Account, which Join Now names).
 */
export function NavItem({
  to,
  end = false,
  elsewhere = false,
  children,
}: {
  to: string;
  end?: boolean;
  elsewhere?: boolean;
  children: ReactNode;
}) {
  return (
    <li className="nav-item">
      {elsewhere ? (
        <Link className="nav-link" to={to}>
          {children}
        </Link>
      ) : (
        <NavLink className="nav-link" to={to} end={end}>
          {children}
        </NavLink>
      )}
    </li>
  );
}
