import { Link } from 'react-router-dom';
import { formatCount } from '../../lib/format';

interface ReplyPagesProps {
  page: number;
  pages: number;
  /** Called when a page link is followed (the thread scrolls back to its top). */
  onNavigate: () => void;
}

/** Previous / "Page X of Y" / Next under a thread; the page lives in the address (`?page=N`). */
export function ReplyPages({ page, pages, onNavigate }: ReplyPagesProps) {
  const step = (to: number, label: string) =>
    to >= 1 && to <= pages ? (
      <Link to={`?page=${to}`} preventScrollReset className="btn btn-outline-primary btn-sm" onClick={onNavigate}>
        {label}
      </Link>
    ) : (
      // A link with no address: its role stays, and it says it leads nowhere.
      <a role="link" aria-disabled="true" className="btn btn-outline-primary btn-sm disabled">
        {label}
      </a>
    );
  return (
    <nav className="app-reply-pages" aria-label="Reply pages">
      {step(page - 1, 'Previous')}
      <span className="app-reply-pages-now" aria-current="page">
        Page {formatCount(page)} of {formatCount(pages)}
      </span>
      {step(page + 1, 'Next')}
    </nav>
  );
}
