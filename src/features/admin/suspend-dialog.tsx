import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { ConfirmDialog } from '../../components/confirm/confirm-dialog';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { suspendMember } from '../../db/moderation/members';
import { dayOf, endOfDay, formatDayTime } from '../../shared/dates';
import { MODERATION_LIMITS } from '../../shared/moderation';
import type { AdminMember } from '../../shared/protocol';

/** Suspend a member through a day (they may sign in again once it ends, in the admin's time zone), with the reason they read when they try. */
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

  const suspend = async (): Promise<boolean> => {
    // The operation's definition refuses a day that is not in the future (or no day), with its sentence.
    const day = endOfDay(until);
    const at = Number.isFinite(day) ? day : 0;
    try {
      await suspendMember(member.id, at, reason);
      showToast({ title: 'Member suspended', description: `${member.name} is signed out everywhere until ${formatDayTime(at)}.` });
      return true;
    } catch (error) {
      showToast(errorToast(error));
      return false;
    }
  };

  return (
    <ConfirmDialog
      title={`Suspend ${member.name}`}
      confirmLabel="Suspend"
      show={show}
      onConfirm={suspend}
      onHide={onHide}
      onExited={onExited}
    >
      <p className="small text-body-secondary">Their sessions end on every device at once. Signing in tells them why, and until when.</p>
      <Form.Group className="mb-3" controlId={`${id}-until`}>
        <Form.Label>Until</Form.Label>
        <Form.Control type="date" required min={tomorrow} value={until} onChange={(event) => setUntil(event.target.value)} />
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
        />
      </Form.Group>
    </ConfirmDialog>
  );
}
