import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { prerenderedMenuOpen } from '../../boot/home-prerender-app';
import { Brand } from '../brand';
import { useCollapseOnNavigate } from './use-collapse-on-navigate';

interface NavbarFrameProps {
  /** The id of the collapsible part (for the toggle's aria-controls). */
  id: string;
  dark?: boolean;
  brandTo: string;
  /** Items that stay visible beside the toggle on a phone. */
  quick?: ReactNode;
  /**
   * What waits inside the closed menu on a phone ("2 unread messages"): a dot on the toggle, and
   * the toggle's description (a trial saw a new message only once the menu was opened).
   */
  note?: string;
  children: ReactNode;
}

/**
 * A Bootstrap navbar that collapses into a menu below the md breakpoint. Plain markup and one
 * piece of state: the header is in the first download, so it carries no component library.
 */
export function NavbarFrame({ id, dark = false, brandTo, quick, note, children }: NavbarFrameProps) {
  // Open at first where the prerendered home page's menu was opened before the app took over.
  const [expanded, setExpanded] = useCollapseOnNavigate(() => prerenderedMenuOpen(id));
  const toggler = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  // Escape closes the open menu from its toggle or from inside it, and the focus goes back to the toggle.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !expanded || !(event.target instanceof Node)) return;
    if (event.target !== toggler.current && !menu.current?.contains(event.target)) return;
    setExpanded(false);
    toggler.current?.focus();
  };
  return (
    <nav
      className={`navbar navbar-expand-md app-navbar ${dark ? 'navbar-dark app-navbar-forum' : 'app-navbar-public'}`}
      data-bs-theme={dark ? 'dark' : undefined}
      aria-label="Main"
      onKeyDown={onKeyDown}
    >
      <div className="container">
        <Link className={`navbar-brand${dark ? ' app-brand-compact' : ''}`} to={brandTo}>
          <Brand light={dark} />
        </Link>
        {quick}
        <button
          ref={toggler}
          type="button"
          className={`navbar-toggler${expanded ? '' : ' collapsed'}`}
          aria-controls={id}
          aria-expanded={expanded}
          aria-label="Menu"
          aria-describedby={note ? `${id}-note` : undefined}
          onClick={() => setExpanded(!expanded)}
        >
          <span className="navbar-toggler-icon" />
          {note && (
            <>
              <span className="app-toggler-dot" aria-hidden="true" />
              <span id={`${id}-note`} className="visually-hidden">
                {note}
              </span>
            </>
          )}
        </button>
        <div ref={menu} className={`collapse navbar-collapse${expanded ? ' show' : ''}`} id={id}>
          {children}
        </div>
      </div>
    </nav>
  );
}
