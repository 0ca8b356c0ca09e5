import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { DISPLAY_CHARS, clip } from '../../lib/format';
import type { Reply } from '../../db/types';
import { AdminBadge } from '../../components/author-name';
import { excerptText } from '../../lib/plain-text';
import { HIDDEN } from './hidden';
import { hiddenFrom, type Viewer } from '../../shared/visibility';

/** Enough of a quoted reply for three lines on a wide screen (the rest is never rendered). */
const QUOTE_CHARS = 400;

interface ReplyQuoteProps {
  postId: number;
  quoteId: string;
  /** The quoted reply as it is now; undefined when this device does not hold it. */
  quoted: Reply | undefined;
  /** Who reads it: a hidden reply's text is theirs only if they may read it (src/shared/visibility.ts). */
  viewer: Viewer;
}

/**
 * Above a reply: the reply it quotes (its author and first lines as plain text, live), linking to it
 * in the thread.
 */
export function ReplyQuote({ postId, quoteId, quoted, viewer }: ReplyQuoteProps) {
  let gone: string | null = null;
  if (!quoted) gone = 'The quoted reply is not available.';
  else if (quoted.state === 'deleted') gone = 'This reply was deleted.';
  else if (hiddenFrom(quoted, viewer)) gone = HIDDEN;
  if (gone !== null || !quoted) return <p className="app-quote is-gone">{gone}</p>;
  return (
    <figure className="app-quote">
      <figcaption>
        <Link to={paths.reply(postId, quoteId)} preventScrollReset className="app-quote-link">
          {clip(quoted.author, DISPLAY_CHARS.author)} wrote
        </Link>
        {quoted.authorRole === 'admin' && <AdminBadge />}
      </figcaption>
      <blockquote className="app-quote-text app-clamp-3">{clip(excerptText(quoted.content), QUOTE_CHARS)}</blockquote>
    </figure>
  );
}
