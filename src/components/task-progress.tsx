import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';

interface TaskProgressProps {
  label: string;
  done: number;
  total: number;
  onCancel?: () => void;
}

/** A long task's progress bar, with what it is doing in words and an optional Cancel. */
export function TaskProgress({ label, done, total, onCancel }: TaskProgressProps) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <div className="app-task">
      <div className="d-flex justify-content-between align-items-center gap-2 mb-1">
        <span className="small" aria-live="polite">
          {label}
        </span>
        {onCancel && (
          <Button size="sm" variant="outline-secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
      <ProgressBar now={percent} animated={total === 0} striped={total === 0} aria-label={label} label={`${percent}%`} visuallyHidden />
    </div>
  );
}
