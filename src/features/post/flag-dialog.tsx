import { useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Spinner } from '../../components/spinner';
import { trapTabKey } from '../../components/focus-trap';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { flagItem } from '../../db/flags/flags';
import type { FlagReason, FlagTarget } from '../../shared/moderation';
import { FlagReasonFields, flagNeedsText } from '../../components/flag-reason-fields';

interface FlagDialogProps {
  target: FlagTarget;
  /** "post" or "reply", for the words. */
  what: string;
  show: boolean;
  onHide: () => void;
  onExited: () => void;
}

/** The "Flag" dialog: a reason (four radios), the member's words (required for Other), Cancel and Send flag. */
export function FlagDialog({ target, what, show, onHide, onExited }: FlagDialogProps) {
  const id = useId();
  const showToast = useToast();
  const [reason, setReason] = useState<FlagReason | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const needsText = flagNeedsText(reason, text);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!reason || needsText) return;
    setBusy(true);
    try {
      await flagItem(target, reason, text.trim());
      showToast({ title: 'Thanks for flagging', description: `A moderator will look at this ${what}.` });
      onHide();
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      show={show}
      onHide={onHide}
      onExited={onExited}
      centered
      aria-labelledby={`${id}-title`}
      backdrop={busy ? 'static' : true}
      keyboard={!busy}
      onKeyDown={trapTabKey}
    >
      <Form noValidate onSubmit={(event) => void submit(event)}>
        <Modal.Header closeButton={!busy} closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            Flag
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <FlagReasonFields
            id={id}
            question={`What is wrong with this ${what}?`}
            reason={reason}
            onReason={setReason}
            text={text}
            onText={setText}
            tried={tried}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy && <Spinner className="me-2" />}
            Send flag
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
