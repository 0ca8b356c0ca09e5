import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import { IconHistory, IconWifiOff } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { paths } from '../../config/paths';
import { isDataError } from '../../db/storage/errors';
import { useMode } from '../../hooks/use-mode';
import { DISPLAY_CHARS, clip, formatFullDate } from '../../lib/format';
import { Age } from '../../components/age';
import type { StaffDetail } from '../../shared/ops/define';
import type { StaffLogEntry } from '../../shared/protocol';
import { staffVerbOf } from '../../shared/staff-actions';
import { LIMIT_LABELS, per } from './limit-window';
import { readStaffLog } from '../../sync/admin';

/** The verb of one entry of the staff log: every action the server logs has its words (never the action's name). */
export function verbOf(entry: Pick<StaffLogEntry, 'action' | 'detail'>): string {
  return staffVerbOf(entry.action, entry.detail as StaffDetail | null);
}

/** A changed limit as the Limits panel names it, and what it became: “New posts” to 10 per hour (first day: 3 per day). */
function LimitChange({ name, rule }: { name: string; rule: Record<string, unknown> }) {
  const { count, seconds, firstDayCount, firstDaySeconds } = rule;
  const counted = (a: unknown, b: unknown) => typeof a === 'number' && typeof b === 'number' && b > 0;
  return (
    <>
      “{LIMIT_LABELS[name] ?? name}”{counted(count, seconds) && <> to {per(count as number, seconds as number)}</>}
      {counted(firstDayCount, firstDaySeconds) && <> (first day: {per(firstDayCount as number, firstDaySeconds as number)})</>}
    </>
  );
}

/** One entry as a sentence: who did what to which post or member, with the reason and decision. */
export function Sentence({ entry }: { entry: StaffLogEntry }) {
  const detail = entry.detail ?? {};
  const verb = verbOf(entry);
  const onPost = entry.postId !== null && entry.title !== null;
  return (
    <>
      <strong>{clip(entry.actor.name, DISPLAY_CHARS.author)}</strong> {verb}{' '}
      {onPost ? (
        <>
          <Link to={entry.replyId ? paths.reply(entry.postId!, entry.replyId) : paths.post(entry.postId!)}>
            “{clip(entry.title!, DISPLAY_CHARS.title)}”
          </Link>
          {entry.member && <> by {clip(entry.member.name, DISPLAY_CHARS.author)}</>}
        </>
      ) : entry.action === 'setLimit' ? (
        <LimitChange name={entry.title ?? ''} rule={detail} />
      ) : (
        <>
          {/* A group's (or category's) name: the space the action reached. */}
          {entry.title !== null && <>“{clip(entry.title, DISPLAY_CHARS.title)}”</>}
          {entry.title !== null && entry.member && ': '}
          {entry.member && <strong>{clip(entry.member.name, DISPLAY_CHARS.author)}</strong>}
        </>
      )}
      {typeof detail.until === 'number' && <> until {formatFullDate(detail.until)}</>}
      {entry.reason && <span className="app-log-reason">: {entry.reason}</span>}
    </>
  );
}

/** The staff log (/admin/log, connected mode): every staff action, newest first, 50 at a time. */
export function StaffLog() {
  const mode = useMode();
  const showToast = useToast();
  const [entries, setEntries] = useState<StaffLogEntry[] | undefined>(undefined);
  const [more, setMore] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (mode !== 'connected') return undefined;
    let live = true;
    readStaffLog().then(
      (page) => {
        if (!live) return;
        setEntries(page.entries);
        setMore(page.more);
      },
      (error: unknown) => live && setFailure(error),
    );
    return () => {
      live = false;
    };
  }, [mode]);
  if (mode === undefined) return <PageLoading label="Loading the staff log..." />;
  if (mode === 'local') {
    return (
      <EmptyState icon={<IconHistory size={40} />} title="No staff log on this device">
        The staff log is kept on the forum’s server. This device is local-only.
      </EmptyState>
    );
  }
  if (failure !== undefined) {
    return isDataError(failure, 'offline') ? (
      <EmptyState icon={<IconWifiOff size={40} />} title="The staff log needs a connection">
        It is kept on the forum’s server: open it again once this device is online.
      </EmptyState>
    ) : (
      <p role="alert" className="text-danger">
        {failure instanceof Error ? failure.message : 'The staff log could not be read.'}
      </p>
    );
  }
  if (!entries) return <PageLoading label="Loading the staff log..." />;
  if (entries.length === 0) {
    return (
      <EmptyState icon={<IconHistory size={40} />} title="No staff actions yet">
        Reviews, hides, deletions, suspensions and changed limits show here.
      </EmptyState>
    );
  }
  const loadMore = async () => {
    setLoading(true);
    try {
      const page = await readStaffLog(entries.at(-1)!.id);
      setEntries([...entries, ...page.entries]);
      setMore(page.more);
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setLoading(false);
    }
  };
  return (
    <>
      <ol className="list-unstyled app-staff-log" aria-label="Staff actions, newest first">
        {entries.map((entry) => (
          <li key={entry.id} className="app-log-entry">
            <Age at={entry.at} className="app-log-time" />
            <span>
              <Sentence entry={entry} />
            </span>
          </li>
        ))}
      </ol>
      {more && (
        <Button variant="outline-primary" onClick={() => void loadMore()} disabled={loading}>
          {loading && <Spinner className="me-2" />}
          Load older actions
        </Button>
      )}
    </>
  );
}
