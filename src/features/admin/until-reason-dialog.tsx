import { useId, useState, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import { ConfirmDialog } from '../../components/confirm/confirm-dialog';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { dayOf, endOfDay } from '../../shared/dates';
import { MODERATION_LIMITS } from '../../shared/moderation';
import type { AdminMember } from '../../shared/protocol';

/** What a staff action's dialog on one member is given. */
export interface MemberDialogProps {
  member: AdminMember;
  show: boolean;
  onHide: () => void;
  onExited: () => void;
}

/**
 * The confirmation of Suspend and Silence: a day it lasts through (the end of that day in the admin's
 * time zone, sent as an instant; optional for a silence) and the reason the member reads. `act`
 * gets the end (ms; null: none picked; 0: not a day, which the operation refuses with its sentence)
 * and answers the toast's sentence; a refusal is told in its own.
 */
export function UntilReasonDialog({
  title,
  confirmLabel,
  intro,
  untilLabel,
  untilHelp,
  firstDay,
  defaultDay = '',
  show,
  onHide,
  onExited,
  done,
  act,
}: {
  title: string;
  confirmLabel: string;
  intro: ReactNode;
  untilLabel: string;
  untilHelp?: string;
  /** Days from today the date field starts at (1: tomorrow). */
  firstDay: number;
  defaultDay?: string;
  show: boolean;
  onHide: () => void;
  onExited: () => void;
  /** The toast's title once done. */
  done: string;
  act: (until: number | null, reason: string) => Promise<string>;
}) {
  const id = useId();
  const now = new Date();
  const min = dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + firstDay));
  const [until, setUntil] = useState(defaultDay);
  const [reason, setReason] = useState('');
  const end = until === '' ? null : endOfDay(until);
  const showToast = useToast();
  const confirm = async (): Promise<boolean> => {
    try {
      showToast({ title: done, description: await act(end === null || Number.isFinite(end) ? end : 0, reason) });
      return true;
    } catch (error) {
      showToast(errorToast(error));
      return false;
    }
  };

  return (
    <ConfirmDialog title={title} confirmLabel={confirmLabel} show={show} onConfirm={confirm} onHide={onHide} onExited={onExited}>
      <p className="small text-body-secondary">{intro}</p>
      <Form.Group className="mb-3" controlId={`${id}-until`}>
        <Form.Label>{untilLabel}</Form.Label>
        <Form.Control
          type="date"
          required={!untilHelp}
          min={min}
          value={until}
          onChange={(event) => setUntil(event.target.value)}
          aria-describedby={untilHelp ? `${id}-until-help` : undefined}
        />
        {untilHelp && <Form.Text id={`${id}-until-help`}>{untilHelp}</Form.Text>}
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
