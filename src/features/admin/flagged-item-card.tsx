import { useState } from 'react';
import { Link } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import { IconEyeOff, IconTrash, IconX } from '@tabler/icons-react';
import { ConfirmDialog } from '../../components/confirm/confirm-dialog';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { useUndoableDelete } from '../../components/toast/use-undoable-delete';
import { paths } from '../../config/paths';
import { deleteFlagged, dismissFlags, hideFlagged, type FlaggedItem } from '../../db/flags/flags';
import { DISPLAY_CHARS, clip, formatAge, formatFullDate, plural } from '../../lib/format';
import { plainText } from '../../lib/plain-text';
import { FLAG_REASON_LABELS, targetKey } from '../../shared/moderation';

/** One flagged post or reply of the Flags queue: what it is, its flags, and Dismiss, Hide, Delete. */
export function FlaggedItemCard({ item, onActing }: { item: FlaggedItem; onActing: () => void }) {
  const showToast = useToast();
  const deleteWithUndo = useUndoableDelete();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<{ open: boolean } | null>(null);
  const { post, reply, flags, target } = item;
  const headingId = `flagged-${targetKey(target).replace(':', '-')}`;
  const what = reply ? 'Reply' : 'Post';

  const act = async (action: () => Promise<void>, done: string) => {
    setBusy(true);
    onActing();
    try {
      await action();
      showToast({ title: done });
    } catch (error) {
      showToast(errorToast(error));
      setBusy(false);
    }
  };
  const confirmDelete = async () => {
    onActing();
    try {
      await deleteWithUndo(() => deleteFlagged(target), { deleted: `${what} deleted`, restored: `${what} restored` });
      return true;
    } catch (error) {
      showToast(errorToast(error));
      return false;
    }
  };

  return (
    <article className="card app-flagged" aria-labelledby={headingId}>
      <div className="card-body">
        <p className="app-flagged-kind">
          <span className="badge text-bg-danger">{plural(flags.length, 'flag')}</span>
          <span>
            {reply ? `A reply by ${clip(reply.author, DISPLAY_CHARS.author)} on` : `A post by ${clip(post.author, DISPLAY_CHARS.author)}`}
          </span>
        </p>
        <h3 id={headingId} className="app-post-title">
          <Link to={reply ? paths.reply(post.id, reply.id) : paths.post(post.id)} className="app-post-link">
            {clip(post.title, DISPLAY_CHARS.title)}
          </Link>
        </h3>
        <blockquote className="app-flagged-excerpt app-clamp-3">{clip(plainText(reply ? reply.content : post.content), 400)}</blockquote>
        <ul className="app-flags" aria-label={`Flags on this ${what.toLowerCase()}`}>
          {flags.map((flag) => (
            <li key={flag.id} className="app-flag">
              <span className="badge text-bg-warning">{FLAG_REASON_LABELS[flag.reason]}</span>
              {flag.text && <q className="app-flag-text">{clip(flag.text, 500)}</q>}
              <span className="app-flag-by">
                by {clip(flag.flagger, DISPLAY_CHARS.author)},{' '}
                <time dateTime={new Date(flag.createdAt).toISOString()} title={formatFullDate(flag.createdAt)}>
                  {formatAge(flag.createdAt).toLowerCase()}
                </time>
              </span>
            </li>
          ))}
        </ul>
      </div>
      <div className="card-footer app-post-footer">
        <div className="app-review-actions">
          <Button
            variant="outline-secondary"
            disabled={busy}
            aria-describedby={headingId}
            onClick={() => void act(() => dismissFlags(target), 'Flags dismissed')}
          >
            <IconX aria-hidden="true" size={18} />
            <span>Dismiss</span>
          </Button>
          <Button
            variant="outline-warning"
            className="app-flag-hide"
            disabled={busy}
            aria-describedby={headingId}
            onClick={() => void act(() => hideFlagged(target), `${what} hidden`)}
          >
            <IconEyeOff aria-hidden="true" size={18} />
            <span>Hide</span>
          </Button>
          <Button variant="outline-danger" disabled={busy} aria-describedby={headingId} onClick={() => setConfirming({ open: true })}>
            <IconTrash aria-hidden="true" size={18} />
            <span>Delete</span>
          </Button>
        </div>
      </div>
      {confirming && (
        <ConfirmDialog
          title={`Delete ${what.toLowerCase()}?`}
          confirmLabel="Delete"
          show={confirming.open}
          onConfirm={confirmDelete}
          onHide={() => setConfirming({ open: false })}
          onExited={() => setConfirming(null)}
        >
          This {what.toLowerCase()} will be removed for everyone. You can undo it for a few seconds.
        </ConfirmDialog>
      )}
    </article>
  );
}
