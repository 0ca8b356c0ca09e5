import { useId, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';

interface CountedNavItemProps {
  to: string;
  children: ReactNode;
  /** A count shown beside the name (not part of it); hidden at 0. */
  count: number | undefined;
  /** The link's accessible description (e.g. "3 posts waiting for review"). */
  description: string | undefined;
}

/**
 * A navbar link with a count badge (the forum header's Admin): the badge never changes the link's
 * name; the count is said in its description. Apart from NavItem, which the first download ships.
 */
export function CountedNavItem({ to, children, count, description }: CountedNavItemProps) {
  const id = useId();
  return (
    <li className="nav-item">
      <NavLink className="nav-link" to={to} aria-describedby={description ? id : undefined}>
        {children}
        {count !== undefined && count > 0 && (
          <span className="badge rounded-pill text-bg-warning app-nav-badge" aria-hidden="true">
            {count > 99 ? '99+' : count}
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
