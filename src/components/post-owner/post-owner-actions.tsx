import { useState } from 'react';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { ConfirmDialog } from '../confirm/confirm-dialog';
import { errorToast } from '../toast/error-toast';
import { useToast } from '../toast/toast-context';
import { useUndoableDelete } from '../toast/use-undoable-delete';
import { deletePost, type EditablePost } from '../../db/posts/editing';
import { mayDeletePost, mayEditPost } from '../../shared/post-rules';
import type { Session } from '../../db/types';

interface PostOwnerActionsProps {
  post: EditablePost;
  viewer: Session;
  /** Opens the Edit Post dialog (the page composes it: features do not import each other). */
  onEdit: (post: EditablePost) => void;
  /** Called once the post is deleted (the post page leaves for the forum). */
  onDeleted?: () => void;
  /** The id of the post's title, which the buttons are described by. */
  titleId: string;
}

/**
 * "Edit" for the post's author and "Delete" for its author or an admin (post-rules.ts). Delete
 * asks first, then says "Post deleted" with Undo for UNDO_WINDOW_MS.
 */
export function PostOwnerActions({ post, viewer, onEdit, onDeleted, titleId }: PostOwnerActionsProps) {
  const [asking, setAsking] = useState<{ open: boolean } | null>(null);
  const showToast = useToast();
  const deleteWithUndo = useUndoableDelete();
  const canEdit = mayEditPost(post, viewer);
  const canDelete = mayDeletePost(post, viewer);
  if (!canEdit && !canDelete) return null;
  const mine = post.authorEmail === viewer.email;

  const confirm = async () => {
    try {
      await deleteWithUndo(() => deletePost(post.id), { deleted: 'Post deleted', restored: 'Post restored' });
      onDeleted?.();
      return true;
    } catch (error) {
      showToast(errorToast(error));
      return false;
    }
  };

  return (
    <div className="app-owner-actions">
      {canEdit && (
        <button type="button" className="btn btn-sm btn-outline-secondary" aria-describedby={titleId} onClick={() => onEdit(post)}>
          <IconPencil aria-hidden="true" size={16} />
          <span>Edit</span>
        </button>
      )}
      {canDelete && (
        <button
          type="button"
          className="btn btn-sm btn-outline-danger"
          aria-describedby={titleId}
          onClick={() => setAsking({ open: true })}
        >
          <IconTrash aria-hidden="true" size={16} />
          <span>Delete</span>
        </button>
      )}
      {asking && (
        <ConfirmDialog
          title="Delete post?"
          confirmLabel="Delete"
          show={asking.open}
          onConfirm={confirm}
          onHide={() => setAsking({ open: false })}
          onExited={() => setAsking(null)}
        >
          {mine ? 'Your post and its replies will be removed for everyone.' : 'This post and its replies will be removed for everyone.'}
        </ConfirmDialog>
      )}
    </div>
  );
}
