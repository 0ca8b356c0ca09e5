import { useId, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';

interface NavItemProps {
  to: string;
  end?: boolean;
  children: ReactNode;
  /** A count shown beside the name (not part of it); hidden at 0. */
  badge?: number;
  /** The link's accessible description (e.g. "3 posts waiting for review"). */
  description?: string;
}

/** One link of a navbar; NavLink marks the current page as active. Its badge never changes its name. */
export function NavItem({ to, end = false, children, badge, description }: NavItemProps) {
  const id = useId();
  return (
    <li className="nav-item">
      <NavLink className="nav-link" to={to} end={end} aria-describedby={description ? id : undefined}>
        {children}
        {badge !== undefined && badge > 0 && (
          <span className="badge rounded-pill text-bg-warning app-nav-badge" aria-hidden="true">
            {badge > 99 ? '99+' : badge}
          </span>
        )}
      </NavLink>
      {description && (
        <span id={id} hidden>
          {description}
        </span>
      )}
    </li>
  );
}
