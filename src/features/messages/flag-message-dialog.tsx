import { useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Spinner } from '../../components/spinner';
import { trapTabKey } from '../../components/focus-trap';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { flagMessage } from '../../db/messages/messages';
import { FLAG_REASONS, FLAG_REASON_LABELS, MODERATION_LIMITS, type FlagReason } from '../../shared/moderation';

/** "Flag message": a reason and the member's words; the admins then read the conversation (the staff log records it). */
export function FlagMessageDialog({ messageId, show, onHide }: { messageId: string; show: boolean; onHide: () => void }) {
  const id = useId();
  const showToast = useToast();
  const [reason, setReason] = useState<FlagReason | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const needsText = reason === 'other' && text.trim() === '';

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
          <fieldset className="mb-3">
            <legend className="form-label fs-6">What is wrong with this message?</legend>
            {FLAG_REASONS.map((value) => (
              <Form.Check
                key={value}
                type="radio"
                id={`${id}-${value}`}
                name={`${id}-reason`}
                label={FLAG_REASON_LABELS[value]}
                checked={reason === value}
                onChange={() => setReason(value)}
                isInvalid={tried && !reason}
              />
            ))}
            {tried && !reason && <div className="invalid-feedback d-block">Please choose a reason.</div>}
          </fieldset>
          <Form.Group controlId={`${id}-text`}>
            <Form.Label>Tell us more{reason === 'other' ? '' : ' (optional)'}</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              value={text}
              maxLength={MODERATION_LIMITS.flagText}
              isInvalid={tried && needsText}
              onChange={(event) => setText(event.target.value)}
            />
            <Form.Control.Feedback type="invalid">Please say what is wrong with it.</Form.Control.Feedback>
          </Form.Group>
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
