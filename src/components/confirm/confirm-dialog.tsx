import { useId, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { Spinner } from '../spinner';
import { trapTabKey } from '../focus-trap';

interface ConfirmDialogProps {
  /** The dialog's title and accessible name, e.g. "Delete reply?". */
  title: string;
  children: ReactNode;
  /** The button that does it (a danger button), e.g. "Delete". */
  confirmLabel: string;
  show: boolean;
  /** Does it; true closes the dialog, false (it failed, and said so) leaves it open. */
  onConfirm: () => Promise<boolean>;
  onHide: () => void;
  onExited: () => void;
}

/** A small dialog that asks before something is removed: Cancel, or the danger button. */
export function ConfirmDialog({ title, children, confirmLabel, show, onConfirm, onHide, onExited }: ConfirmDialogProps) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const done = await onConfirm();
    setBusy(false);
    if (done) onHide();
  };
  return (
    <Modal
      show={show}
      onHide={onHide}
      onExited={onExited}
      centered
      size="sm"
      aria-labelledby={`${id}-title`}
      backdrop={busy ? 'static' : true}
      keyboard={!busy}
      onKeyDown={trapTabKey}
    >
      <Modal.Header closeButton={!busy} closeLabel="Close">
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          {busy && <Spinner className="me-2" />}
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
