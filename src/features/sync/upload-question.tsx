import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { countUploadablePosts, decideUpload } from '../../db/sync/local-posts';
import type { Session } from '../../db/types';
import { useSyncStatus } from '../../hooks/use-sync-status';

const posts = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'post' : 'posts'}`;

/**
 * Asked once on a device that was local-only and now meets a server: the member's own posts
 * written here can go to the server as new pending posts, or stay on this device only.
 */
export function UploadQuestion({ user }: { user: Session }) {
  const { state } = useSyncStatus();
  const count = useLiveQuery(() => (state === 'local' ? 0 : countUploadablePosts(user.email)), [state, user.email]);
  const [busy, setBusy] = useState(false);
  const showToast = useToast();
  if (!count) return null;

  const decide = async (upload: boolean) => {
    setBusy(true);
    try {
      const sent = await decideUpload(user, upload);
      showToast(
        upload
          ? { title: 'Posts uploaded', description: `${posts(sent)} will be sent for review.` }
          : { title: 'Kept on this device', description: `${posts(count)} stay on this device only.`, variant: 'info' },
      );
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="alert alert-info app-banner mb-0 rounded-0" aria-labelledby="upload-question-title">
      <div className="container d-flex flex-wrap align-items-center gap-2">
        <p id="upload-question-title" className="mb-0 me-auto">
          You wrote {posts(count)} on this device before it was connected to the forum. Upload {count === 1 ? 'it' : 'them'} for review?
        </p>
        <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={() => void decide(true)}>
          Upload {posts(count)}
        </button>
        <button type="button" className="btn btn-outline-secondary btn-sm" disabled={busy} onClick={() => void decide(false)}>
          Keep on this device only
        </button>
      </div>
    </section>
  );
}
