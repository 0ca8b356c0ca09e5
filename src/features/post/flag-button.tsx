import { useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { IconFlag, IconFlagFilled } from '@tabler/icons-react';
import { getMyFlag } from '../../db/flags/flags';
import type { FlagTarget } from '../../shared/moderation';
import { FlagDialog } from './flag-dialog';

interface FlagButtonProps {
  target: FlagTarget;
  what: 'post' | 'reply';
  className: string;
  /** The element naming the item (its title or author), for the button's description. */
  describedBy: string;
}

/** "Flag", or "Flagged" (disabled) once the member flagged the item. Callers leave it out on the member's own items. */
export function FlagButton({ target, what, className, describedBy }: FlagButtonProps) {
  const { postId, replyId } = target;
  const mine = useLiveQuery(() => getMyFlag({ postId, replyId }).then((flag) => flag ?? null), [postId, replyId]);
  const [dialog, setDialog] = useState<{ open: boolean } | null>(null);
  const flagged = Boolean(mine);
  const button = useRef<HTMLButtonElement>(null);
  // The dialog gives focus back to this button; once flagged it is disabled and cannot hold it, so
  // the item it belongs to takes it (a reply's row): focus never falls to the page, and a toast
  // shown meanwhile is placed away from that row (issue 40).
  const afterDialog = () => {
    setDialog(null);
    const opener = button.current;
    const focused = document.activeElement;
    const lost = !focused || focused === document.body || Boolean(focused.closest('.modal'));
    if (opener?.disabled && lost) opener.closest<HTMLElement>('[tabindex]')?.focus({ preventScroll: true });
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className={className}
        // While it is read whether the member flagged it, it looks as Flag does and does nothing
        // (aria-disabled): disabled, it showed grey and outlined for that moment (issue 40, item 7).
        disabled={flagged}
        aria-disabled={mine === undefined || undefined}
        aria-describedby={describedBy}
        onClick={() => {
          if (mine !== undefined) setDialog({ open: true });
        }}
      >
        {flagged ? <IconFlagFilled aria-hidden="true" size={16} /> : <IconFlag aria-hidden="true" size={16} />}
        <span>{flagged ? 'Flagged' : 'Flag'}</span>
      </button>
      {dialog && (
        <FlagDialog
          target={{ postId, replyId }}
          what={what}
          show={dialog.open}
          onHide={() => setDialog({ open: false })}
          onExited={afterDialog}
        />
      )}
    </>
  );
}
