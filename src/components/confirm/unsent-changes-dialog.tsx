import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { Spinner } from '../spinner';
import { trapTabKey } from '../focus-trap';
import { UNSENT_CHANGES_TITLE, unsentChangesMessage } from '../../shared/errors';

interface UnsentChangesDialogProps {
  /** How many changes Log out could not send (0: the dialog is closed). */
  unsent: number;
  /** Stay signed in: nothing happens, the changes keep trying to reach the server. */
  onStay: () => void;
  /** Log out anyway: the changes stay on this device for the member's next sign-in here. */
  onLogOut: () => Promise<void>;
}

/** Log out with changes not sent yet (issue 59): names what is left and lets the member stay. */
export function UnsentChangesDialog({ unsent, onStay, onLogOut }: UnsentChangesDialogProps) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const logOut = async () => {
    setBusy(true);
    try {
      await onLogOut();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      show={unsent > 0}
      onHide={onStay}
      centered
      size="sm"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      backdrop={busy ? 'static' : true}
      keyboard={!busy}
      onKeyDown={trapTabKey}
    >
      <Modal.Header closeButton={!busy} closeLabel="Close">
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          {UNSENT_CHANGES_TITLE}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p id={`${id}-text`} className="mb-0">
          {unsentChangesMessage(unsent)}
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onStay} disabled={busy}>
          Stay signed in
        </Button>
        <Button variant="outline-danger" onClick={() => void logOut()} disabled={busy}>
          {busy && <Spinner className="me-2" />}
          Log out anyway
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
