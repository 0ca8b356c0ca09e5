import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { CategoryFilter } from '../../db/types';
import { useSyncStatus } from '../../hooks/use-sync-status';
import { LoadMore } from '../../components/load-more';
import { errorToast } from '../../components/toast/error-toast';
import { useToast } from '../../components/toast/toast-context';
import { isDataError } from '../../db/storage/errors';

// The request code (and the API client) loads when the first older page is asked for.
const loadWindow = () => import('../../sync/window');
// A local-only device's packed posts (db/posts/packed.ts): that code loads the same way.
const loadPacked = () => import('../../db/posts/packed');
/** Posts an older page unpacks on a local-only device: as many as a page from the server. */
const PACKED_PAGE = 50;

/**
 * The end of the forum's list on a device that holds part of the forum (issue 44). Local-only, the
 * older posts are packed on the device: they are unpacked a page at a time, online or not. Connected and online,
 * the next older posts come from the server as the end scrolls near (the button is the keyboard's
 * way) and the list grows by a page (`onLoaded`); offline, the list ends plainly with what the device holds and how to keep more.
 */
export function OlderPosts({
  category,
  email,
  part,
  packed = 0,
  onLoaded,
}: {
  category: CategoryFilter;
  email: string;
  /** Whether this device holds part of the forum (the forum page reads it). */
  part: boolean | undefined;
  /** Local-only: how many posts of the category are still packed (none: the list has ended). */
  packed?: number;
  onLoaded: () => void;
}) {
  const status = useSyncStatus().state;
  const showToast = useToast();
  const [loading, setLoading] = useState(false);
  const [ended, setEnded] = useState<CategoryFilter | null>(null);
  // Local-only with posts still packed in this category: they unpack, online or not; the count alone
  // says when the list has ended (a later import may pack more).
  const local = packed > 0;
  if (!part || (!local && (status === 'local' || ended === category))) return null;

  if (!local && status === 'offline')
    return (
      <p className="app-list-end text-body-secondary" role="status">
        That’s everything this device holds{category === 'All' ? '' : ` in ${category}`}. Older posts load from the server when you’re back
        online. To read the whole forum offline, use <Link to="/profile#storage-title">Download the whole forum</Link> on your profile.
      </p>
    );

  const load = async () => {
    if (loading) return;
    setLoading(true);
    try {
      const more = local
        ? (await (await loadPacked()).unpackOlder(category, PACKED_PAGE)).more
        : await (await loadWindow()).loadOlderPosts(email, category);
      // The list shows the page at once (one page longer), not after another Load more.
      onLoaded();
      if (!more) setEnded(category);
    } catch (error) {
      // Offline, the list's end says so itself (the sync status turns offline): no toast on top.
      if (!isDataError(error, 'offline')) showToast(errorToast(error));
    } finally {
      setLoading(false);
    }
  };
  return (
    <LoadMore onLoadMore={() => void load()} loading={loading} label={local ? 'Load older posts' : 'Load older posts from the server'} />
  );
}
