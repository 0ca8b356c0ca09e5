import { suspendMember } from '../../db/moderation/members';
import { dayOf, formatDayTime } from '../../shared/dates';
import { UntilReasonDialog, type MemberDialogProps } from './until-reason-dialog';

/** Suspend a member through a day (they may sign in again once it ends, in the admin's time zone), with the reason they read when they try. */
export function SuspendDialog({ member, show, onHide, onExited }: MemberDialogProps) {
  const now = new Date();
  // The operation's definition refuses a day that is not in the future (or no day), with its sentence.
  const suspend = async (until: number | null, reason: string) => {
    await suspendMember(member.id, until ?? 0, reason);
    return `${member.name} is signed out everywhere until ${formatDayTime(until ?? 0)}.`;
  };

  return (
    <UntilReasonDialog
      title={`Suspend ${member.name}`}
      confirmLabel="Suspend"
      intro="Their sessions end on every device at once. Signing in tells them why, and until when."
      untilLabel="Until"
      firstDay={1}
      defaultDay={dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 7))}
      show={show}
      onHide={onHide}
      onExited={onExited}
      done="Member suspended"
      act={suspend}
    />
  );
}
