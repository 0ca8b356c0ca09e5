import { IconBookmark, IconBookmarkFilled } from '@tabler/icons-react';
import { useToast } from './toast/toast-context';
import { errorToast } from './toast/error-toast';

export interface SaveState {
  /** The signed-in member. */
  email: string;
  /** Whether the member saved the post (undefined while it is read). */
  saved: boolean | undefined;
}

/**
 * Save: a toggle (aria-pressed) that keeps the post in the member's Saved Posts, on every device.
 * Its name stays "Save" (a toggle's name never changes; aria-pressed says the state) while its label
 * says the state: "Save", then "Saved". While the state is read it looks the same and does nothing.
 * Bootstrap utilities only: the first stylesheet (which the forum snapshot paints with) is at its budget.
 */
export function SaveButton({ postId, state, describedBy }: { postId: number; state: SaveState; describedBy?: string }) {
  const showToast = useToast();
  const saved = state.saved === true;
  const reading = state.saved === undefined;
  const toggle = () => {
    if (reading) return;
    import('../db/saved/saved')
      .then(({ setSaved }) => setSaved(state.email, postId, !saved))
      .catch((error: unknown) => showToast(errorToast(error)));
  };
  const Icon = saved ? IconBookmarkFilled : IconBookmark;
  return (
    <button
      type="button"
      className={`btn btn-sm d-inline-flex align-items-center gap-1 fw-semibold app-save ${saved ? 'text-primary-emphasis' : 'text-body-secondary'}`}
      aria-label="Save"
      aria-pressed={saved}
      aria-describedby={describedBy}
      aria-disabled={reading || undefined}
      onClick={toggle}
    >
      <Icon aria-hidden="true" size={18} />
      <span>{saved ? 'Saved' : 'Save'}</span>
    </button>
  );
}
