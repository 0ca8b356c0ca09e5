import Button from 'react-bootstrap/Button';
import { IconCheck, IconKeyboard, IconX } from '@tabler/icons-react';
import { Spinner } from '../../components/spinner';
import { formatCount } from '../../lib/format';
import type { Decision } from './pending-post';

interface BulkToolbarProps {
  selected: number;
  shown: number;
  busy: Decision | null;
  onSelectAll: () => void;
  onClear: () => void;
  onReview: (decision: Decision) => void;
  onHelp: () => void;
  /** The "Select all shown" button, to take focus after a bulk review. */
  selectAllRef: React.Ref<HTMLButtonElement>;
}

/** Above the queue: select all shown, how many are selected, Approve selected and Reject selected; the shortcuts hint. */
export function BulkToolbar({ selected, shown, busy, onSelectAll, onClear, onReview, onHelp, selectAllRef }: BulkToolbarProps) {
  const none = selected === 0;
  return (
    <div className="app-bulk" role="group" aria-label="Review several posts">
      <div className="app-bulk-select">
        <Button ref={selectAllRef} size="sm" variant="outline-secondary" onClick={onSelectAll} disabled={selected === shown}>
          Select all shown
        </Button>
        {!none && (
          <Button size="sm" variant="link" onClick={onClear}>
            Clear selection
          </Button>
        )}
        <span className="app-bulk-count" aria-live="polite">
          {formatCount(selected)} selected
        </span>
      </div>
      <div className="app-bulk-actions">
        <Button size="sm" variant="success" disabled={none || busy !== null} onClick={() => onReview('approve')}>
          {busy === 'approve' ? <Spinner /> : <IconCheck aria-hidden="true" size={16} />}
          <span>Approve selected</span>
        </Button>
        <Button size="sm" variant="outline-danger" disabled={none || busy !== null} onClick={() => onReview('reject')}>
          {busy === 'reject' ? <Spinner /> : <IconX aria-hidden="true" size={16} />}
          <span>Reject selected</span>
        </Button>
      </div>
      <button type="button" className="btn btn-link btn-sm app-bulk-hint" onClick={onHelp}>
        <IconKeyboard aria-hidden="true" size={16} />
        <span>
          Press <kbd>?</kbd> for keyboard shortcuts
        </span>
      </button>
    </div>
  );
}
