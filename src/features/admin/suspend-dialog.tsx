import { useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Spinner } from '../../components/spinner';
import { trapTabKey } from '../../components/focus-trap';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { suspendMember } from '../../db/moderation/members';
import { formatFullDate } from '../../lib/format';
import { MODERATION_LIMITS } from '../../shared/moderation';
import type { AdminMember } from '../../shared/protocol';

/** A day as a date input writes it (local time): YYYY-MM-DD. */
const dayOf = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The start (local midnight) of a YYYY-MM-DD day, in ms; NaN for anything else. */
const startOf = (day: string) => {
  const [year, month, date] = day.split('-').map(Number);
  return year && month && date ? new Date(year, month - 1, date).getTime() : Number.NaN;
};

/** Suspend a member until a day (they may sign in again from its start), with the reason they read when they try. */
export function SuspendDialog({
  member,
  show,
  onHide,
  onExited,
}: {
  member: AdminMember;
  show: boolean;
  onHide: () => void;
  onExited: () => void;
}) {
  const id = useId();
  const showToast = useToast();
  const now = new Date();
  const tomorrow = dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1));
  const [until, setUntil] = useState(dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 7)));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const at = startOf(until);
    if (!Number.isFinite(at) || at <= Date.now()) {
      showToast({ title: 'Error', description: 'Choose a day after today for the suspension to end.', variant: 'error' });
      return;
    }
    setBusy(true);
    try {
      await suspendMember(member.id, at, reason);
      showToast({ title: 'Member suspended', description: `${member.name} is signed out everywhere until ${formatFullDate(at)}.` });
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
      onKeyDown={trapTabKey}
    >
      <Form onSubmit={(event) => void submit(event)}>
        <Modal.Header closeButton={!busy}>
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            Suspend {member.name}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-body-secondary">
            Their sessions end on every device at once. Signing in tells them why, and until when.
          </p>
          <Form.Group className="mb-3" controlId={`${id}-until`}>
            <Form.Label>Until</Form.Label>
            <Form.Control
              type="date"
              required
              min={tomorrow}
              value={until}
              onChange={(event) => setUntil(event.target.value)}
              disabled={busy}
            />
          </Form.Group>
          <Form.Group controlId={`${id}-reason`}>
            <Form.Label>Reason</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              required
              maxLength={MODERATION_LIMITS.reason}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              disabled={busy}
            />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy && <Spinner className="me-2" />}
            Suspend
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
