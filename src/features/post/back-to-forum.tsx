import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';

/** The link back to the forum, on a post's page and on its "not available" page. */
export function BackToForum({ className = 'app-back' }: { className?: string }) {
  return (
    <Link to={paths.forum} className={className}>
      <IconArrowLeft aria-hidden="true" size={18} />
      <span>Back to the forum</span>
    </Link>
  );
}
