import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { ConfirmDialog } from '../../components/confirm/confirm-dialog';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { downloadWholeForum, freeUpSpace, holdsPart } from '../../db/sync/free-space';
import { readWindowSummary } from '../../db/sync/window';
import { formatCount, plural } from '../../lib/format';

/** How many of the newest posts Free up space keeps (the data layer's rule, said in the dialog). */
const KEPT_NEWEST = 50;

/**
 * On a connected device: Free up space (asks first: saved posts, the member's own posts and the
 * newest stay) and, while it holds part of the forum, Download the whole forum.
 */
export function StorageActions({ email, connected, offline }: { email: string; connected: boolean; offline: boolean }) {
  const showToast = useToast();
  const part = useLiveQuery(() => holdsPart(), []);
  const summary = useLiveQuery(() => readWindowSummary(), []);
  const [dialog, setDialog] = useState<'open' | 'closing' | null>(null);
  const [asking, setAsking] = useState(false);
  // Under way until its pull from the start has ended (the posts arrive in the background).
  const downloading = asking || summary?.part === 'refetch' || summary?.part === 'refetching';

  const free = async (): Promise<boolean> => {
    try {
      const { removed } = await freeUpSpace(email);
      showToast({
        title: 'Space freed',
        description: removed
          ? `${plural(removed, 'post')} removed from this device.`
          : 'Nothing to remove: this device keeps only what you need.',
      });
      return true;
    } catch (error) {
      showToast(errorToast(error));
      return false;
    }
  };

  const download = async () => {
    setAsking(true);
    try {
      await downloadWholeForum();
      showToast({
        title: 'Downloading the whole forum',
        description: 'Posts arrive in the background. This device keeps all of them from now on, for reading offline.',
      });
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setAsking(false);
    }
  };

  // Local-only, this device holds the only copy: there is nothing it could remove safely.
  if (!connected) return null;
  return (
    <div className="d-flex flex-wrap gap-2 mt-3">
      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setDialog('open')}>
        Free up space
      </button>
      {part && (
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={downloading || offline}
          title={offline ? 'Needs a connection' : undefined}
          onClick={() => void download()}
        >
          {downloading && <Spinner className="me-2" />}
          Download the whole forum
        </button>
      )}
      {downloading && summary && (
        <p className="w-100 mb-0 small text-body-secondary" role="status">
          Downloading the whole forum: {formatCount(summary.posts)} posts on this device so far.
        </p>
      )}
      {dialog && (
        <ConfirmDialog
          title="Free up space?"
          confirmLabel="Free up space"
          show={dialog === 'open'}
          onConfirm={free}
          onHide={() => setDialog('closing')}
          onExited={() => setDialog(null)}
        >
          <p>Removes older posts and their replies from this device (they stay on the server).</p>
          <p className="mb-0">
            Your saved posts and their replies, your own posts and the newest {KEPT_NEWEST} posts are kept, so they stay readable offline.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
