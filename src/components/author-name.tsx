import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { clip, DISPLAY_CHARS } from '../lib/format';
import { authorKey } from '../shared/members';

/** The badge beside the admin's name wherever an author is shown: nobody else can carry it (their name cannot be "Admin"). */
export function AdminBadge() {
  return <span className="badge app-admin-badge">Admin</span>;
}

interface Authored {
  author: string;
  authorEmail: string;
  authorRole: string;
  authorId?: string;
}

/**
 * An author's name as a link to their page (when this device knows who they are: authorKey), with
 * the Admin badge when they are the admin.
 */
export function AuthorName({ item, className, id }: { item: Authored; className: string; id?: string }) {
  const key = authorKey(item);
  const name = clip(item.author, DISPLAY_CHARS.author);
  return (
    <>
      {key ? (
        <Link id={id} className={className} to={paths.member(key)}>
          {name}
        </Link>
      ) : (
        <span id={id} className={className}>
          {name}
        </span>
      )}
      {item.authorRole === 'admin' && <AdminBadge />}
    </>
  );
}
