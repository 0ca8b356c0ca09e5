import { useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Spinner } from '../../components/spinner';
import { trapTabKey } from '../../components/focus-trap';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { flagMessage } from '../../db/messages/messages';
import type { FlagReason } from '../../shared/moderation';
import { FlagReasonFields, flagNeedsText } from '../../components/flag-reason-fields';

/** "Flag message": a reason and the member's words; the admins then read the conversation (the staff log records it). */
export function FlagMessageDialog({ messageId, show, onHide }: { messageId: string; show: boolean; onHide: () => void }) {
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
      await flagMessage(messageId, reason, text.trim());
      showToast({ title: 'Thanks for flagging', description: 'An admin will read this conversation.' });
      onHide();
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby={`${id}-title`} backdrop={busy ? 'static' : true} onKeyDown={trapTabKey}>
      <Form noValidate onSubmit={(event) => void submit(event)}>
        <Modal.Header closeButton={!busy} closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            Flag message
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-body-secondary">An admin will read this conversation to look at it.</p>
          <FlagReasonFields
            id={id}
            question="What is wrong with this message?"
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
