import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { Spinner } from '../../components/spinner';
import { trapTabKey } from '../../components/focus-trap';

interface DeleteReplyDialogProps {
  show: boolean;
  onConfirm: () => Promise<boolean>;
  onHide: () => void;
  onExited: () => void;
}

/** "Delete reply?": the author confirms before their reply is removed for everyone. */
export function DeleteReplyDialog({ show, onConfirm, onHide, onExited }: DeleteReplyDialogProps) {
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
      <Modal.Header>
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          Delete reply?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>Your reply will be removed for everyone.</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          {busy && <Spinner className="me-2" />}
          Delete
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
