import { useLiveQuery } from 'dexie-react-hooks';
import { IconDatabase, IconLock, IconLockOpen } from '@tabler/icons-react';
import { readMirrorStats } from '../../db/mirror/write';
import { readStorageStatus, type StorageStatus } from '../../db/storage/storage-status';
import { formatBytes, formatCount, plural } from '../../lib/format';
import { useAsyncValue } from '../../hooks/use-async-value';
import { useSyncStatus } from '../../hooks/use-sync-status';
import { StorageActions } from './storage-actions';
import { POSTS_BUDGET, readWindowSummary, STORAGE_BUDGET_BYTES, type WindowSummary } from '../../db/sync/window';
import { readPackedCounts } from '../../db/posts/packed-counts';

/** How much of the forum this connected device keeps, and its budget (issue 44). */
function describeForum(summary: WindowSummary | undefined): string {
  if (!summary) return 'Checking…';
  const posts = plural(summary.posts, 'post');
  if (summary.whole) return `The whole forum, as you asked: ${posts}, with no limit`;
  const budget = `It keeps at most ${formatCount(POSTS_BUDGET)} besides your own and saved posts (about ${formatBytes(STORAGE_BUDGET_BYTES)})`;
  return summary.part
    ? `${posts}: the newest, your own and your saved ones. ${budget}; older posts load from the server when you go to them`
    : `All ${posts} of the forum. ${budget}; past that the oldest leave and load from the server when you go to them`;
}

/** A local-only device that packed the older posts of a large import (db/posts/packed.ts). */
function describePacked(summary: WindowSummary | undefined, packed: number): string {
  if (!summary) return 'Checking…';
  return `${plural(summary.posts + packed, 'approved post')}: the newest ${formatCount(summary.posts)} ready to read, the ${formatCount(packed)} older ones packed together to import quickly. Each opens when you go to it.`;
}

const describeLastSync = (at: number | undefined) =>
  at ? new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' }) : 'Not yet';

function describeUsage(status: StorageStatus | null): string {
  if (!status) return 'Checking…';
  if (status.usage === null) return 'Unknown';
  return `${formatBytes(status.usage)}${status.quota ? ` of ${formatBytes(status.quota)} available` : ''}`;
}

/** Where this device keeps the forum: whether the browser keeps it, space used, the copy for older versions; Free up space. */
export function StoragePanel({ email }: { email: string }) {
  const mirror = useLiveQuery(() => readMirrorStats(), []);
  const status = useAsyncValue(() => readStorageStatus(), { key: 'storage', refresh: mirror?.writtenAt })?.value ?? null;

  const sync = useSyncStatus();
  const forum = useLiveQuery(() => readWindowSummary(), []);
  const packed = useLiveQuery(async () => (await readPackedCounts()).All ?? 0, []) ?? 0;
  const persisted = status?.persisted;
  return (
    <section className="card app-panel" aria-labelledby="storage-title">
      <div className="card-body">
        <h2 id="storage-title" className="app-sidebar-title">
          <IconDatabase aria-hidden="true" size={20} /> Storage on this device
        </h2>
        <dl className="app-facts mb-0">
          <dt>Kept by the browser</dt>
          <dd>
            {persisted === undefined ? (
              'Checking…'
            ) : persisted === null ? (
              'This browser does not say'
            ) : persisted ? (
              <span className="text-success">
                <IconLock aria-hidden="true" size={16} /> Yes: the browser will not clear it on its own
              </span>
            ) : (
              <span>
                <IconLockOpen aria-hidden="true" size={16} /> Not yet: the browser may clear it when space runs low
              </span>
            )}
          </dd>
          <dt>Space used</dt>
          <dd>{describeUsage(status)}</dd>
          <dt>Copy for older versions of the app</dt>
          <dd>
            {mirror
              ? mirror.count === mirror.total
                ? `Holds all ${formatCount(mirror.total)} posts`
                : `Holds the newest ${formatCount(mirror.count)} of ${formatCount(mirror.total)} posts (it is limited to about 4 MB; all posts stay on this device)${
                    mirror.skipped
                      ? `. ${plural(mirror.skipped, 'post')} too large for the room left ${mirror.skipped === 1 ? 'was' : 'were'} skipped`
                      : ''
                  }`
              : 'Not written yet'}
          </dd>
          {sync.state === 'local' && packed > 0 && (
            <>
              <dt>Forum on this device</dt>
              <dd data-testid="forum-held">{describePacked(forum, packed)}</dd>
            </>
          )}
          {sync.state !== 'local' && (
            <>
              <dt>Forum on this device</dt>
              <dd data-testid="forum-held">{describeForum(forum)}</dd>
              <dt>Last sync</dt>
              <dd data-testid="last-sync">{describeLastSync(sync.lastSyncAt)}</dd>
              <dt>Waiting to sync</dt>
              <dd data-testid="waiting-changes">
                {sync.waiting === 0 ? 'Nothing: every change reached the server' : `${plural(sync.waiting, 'change')} made on this device`}
              </dd>
            </>
          )}
        </dl>
        <StorageActions email={email} connected={sync.state !== 'local'} offline={sync.state === 'offline'} />
      </div>
    </section>
  );
}
