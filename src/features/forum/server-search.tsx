import { useEffect, useEffectEvent, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { savedPostIds } from '../../db/saved/saved';
import { readCursor } from '../../db/ops/sync-meta';
import { getPostsByIds } from '../../db/posts/posts';
import type { CategoryFilter } from '../../db/types';
import { useSyncStatus } from '../../hooks/use-sync-status';
import { errorToast } from '../../components/toast/error-toast';
import { useToast } from '../../components/toast/toast-context';
import { Spinner } from '../../components/spinner';
import { formatCount, plural } from '../../lib/format';
import { LoadMore } from '../../components/load-more';
import { parseQuery, type ParsedQuery } from '../../shared/search-language';
import { isPublicPost } from '../../shared/visibility';
import type { ServerSearchAnswer } from '../../sync/server-reads';
import { ForumPost } from './forum-post';
import { FoundInReply } from './found-in-reply';
import { useUnreadCounts } from '../../hooks/use-reads';

interface ServerSearchProps {
  query: string;
  category: CategoryFilter;
  parsed: ParsedQuery | undefined;
  email: string;
  /** This local-only device holds older posts packed (db/posts/packed.ts): those are searched, not a server. */
  packed?: boolean;
}

interface Answer extends ServerSearchAnswer {
  key: string;
}

/** How long after the last keystroke the server is asked (each keystroke would be a request). */
const SERVER_SEARCH_DELAY_MS = 150;
/** The server's results painted at first (a screen or two); the rest, already on the device, a page at a time. */
const SERVER_PAGE = 10;

/**
 * Local-only with older posts packed (db/posts/packed.ts): searches them the same way, on the
 * device, and shows what it found above the rest. On a connected device that holds only part of the forum: says so under a search and, online,
 * asks the server by itself (issue 44: no button to press) once typing pauses; its ranked results
 * are shown above the device's own and kept on the device. Offline it says why it cannot.
 */
export function ServerSearch({ query, category, parsed, email, packed = false }: ServerSearchProps) {
  const status = useSyncStatus().state;
  const showToast = useToast();
  const key = `${category}\u0000${query}`;
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const shown = answer?.key === key ? answer : null;
  const [more, setMore] = useState<{ key: string; count: number } | null>(null);
  const count = more?.key === key ? more.count : SERVER_PAGE;
  const posts = useLiveQuery(
    async () => (shown ? (await getPostsByIds(shown.ids.slice(0, count))).filter((post) => isPublicPost(post)) : []),
    [shown, count],
  );
  const unread = useUnreadCounts();
  const saved = useLiveQuery(async () => new Set(await savedPostIds(email)), [email]);
  // Local-only, the device's own packed posts are searched (db/posts/packed.ts), online or not.
  const local = packed;
  const offline = !local && status === 'offline';
  // Connected, nothing is asked before the sync has started (its status is still 'local').
  const active = Boolean(query) && (local || status !== 'local');

  const ask = useEffectEvent(async (asked: string, cursor: Promise<number>) => {
    setBusy(true);
    try {
      if (local) {
        const { searchPacked } = await import('../../db/posts/packed');
        setAnswer({ key: asked, ...(await searchPacked(parsed ?? parseQuery(query), category, email)) });
        return;
      }
      // The request code (and the API client) loads on the first server search only.
      const { searchServer } = await import('../../sync/server-reads');
      const result = await searchServer(query, category, undefined, cursor);
      setAnswer({ key: asked, ...result });
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  });
  // Each search typed (once typing pauses), online, goes to the server once.
  const asked = answer?.key === key;
  useEffect(() => {
    if (!active || offline || asked) return undefined;
    // The device's cursor is read while typing pauses, not after.
    const cursor = local ? Promise.resolve(0) : readCursor();
    cursor.catch(() => undefined);
    const timer = setTimeout(() => void ask(key, cursor), SERVER_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [active, offline, asked, key, local]);
  if (!active) return null;

  return (
    <>
      <div className="alert alert-secondary d-flex flex-wrap align-items-center gap-2 py-2 app-server-search">
        <span id="server-search-why" role="status">
          {local
            ? busy
              ? 'Searching the older posts kept on this device…'
              : shown && shown.total > 0
                ? `Found ${plural(shown.total, 'match', 'matches')} in the older posts kept on this device: ${shown.more ? `the newest ${formatCount(shown.ids.length)} are` : shown.total === 1 ? 'it is' : 'they are'} in the results below.`
                : 'The older posts kept on this device were searched too.'
            : 'This device holds part of the forum.'}
          {local
            ? ''
            : offline
              ? ' Searching the server needs a connection: you are offline.'
              : busy
                ? ' Searching the server…'
                : shown
                  ? ' The server’s results come first.'
                  : ''}
        </span>
        {busy && <Spinner />}
      </div>
      {/* Local-only, what the packed posts gave is unpacked: the device's own results below show it. */}
      {shown && !local && (
        <section className="mb-4 app-server-results" aria-labelledby="server-results-title">
          <h3 id="server-results-title" className="h6">
            Results from the server{' '}
            <span className="fw-normal text-body-secondary">
              ({shown.more ? `${shown.total}+ results` : plural(shown.total, 'result')})
            </span>
          </h3>
          {posts?.length === 0 && <p className="mb-0">No posts found</p>}
          <div className="app-post-list">
            {posts?.map((post) => (
              <div key={post.id}>
                <ForumPost
                  post={post}
                  email={email}
                  saved={saved?.has(post.id)}
                  isNew={false}
                  unread={unread.get(post.id) ?? 0}
                  query={parsed}
                />
                {shown.replies[post.id] && <FoundInReply postId={post.id} replyId={shown.replies[post.id]!} />}
              </div>
            ))}
          </div>
          {shown.ids.length > count && (
            <LoadMore
              onLoadMore={() => setMore({ key, count: count + SERVER_PAGE * 2 })}
              loading={false}
              label={`More results from the server (${formatCount(shown.ids.length - count)} more)`}
            />
          )}
        </section>
      )}
    </>
  );
}
