import { useCallback } from 'react';
import { undoDeletion, type UndoToken } from '../../db/posts/editing';
import { UNDO_WINDOW_MS } from '../../shared/post-rules';
import { errorToast } from './error-toast';
import { useToast } from './toast-context';

/** The words of a deletion's toasts. */
export interface DeletionWords {
  /** e.g. "Post deleted". */
  deleted: string;
  /** e.g. "Post restored". */
  restored: string;
}

/**
 * Runs a deletion and says so in a success toast with Undo, offered until the token's deadline
 * (UNDO_WINDOW_MS; the toast leaves then even if pointed at). Undo puts it back ("… restored"), or
 * shows why not (too_late_to_undo). A failed deletion throws, for the caller to show.
 */
export function useUndoableDelete(): (remove: () => Promise<UndoToken>, words: DeletionWords) => Promise<void> {
  const showToast = useToast();
  return useCallback(
    async (remove, words) => {
      const token = await remove();
      showToast({
        title: words.deleted,
        description: `You can undo this for ${Math.round(UNDO_WINDOW_MS / 1000)} seconds.`,
        until: token.until,
        action: {
          label: 'Undo',
          onClick: () => {
            undoDeletion(token).then(
              () => showToast({ title: words.restored }),
              (error: unknown) => showToast(errorToast(error)),
            );
          },
        },
      });
    },
    [showToast],
  );
}
