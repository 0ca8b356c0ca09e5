import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';

/** One link of a navbar; NavLink marks the current page as active. */
export function NavItem({ to, end = false, children }: { to: string; end?: boolean; children: ReactNode }) {
  return (
    <li className="nav-item">
      <NavLink className="nav-link" to={to} end={end}>
        {children}
      </NavLink>
    </li>
  );
}
