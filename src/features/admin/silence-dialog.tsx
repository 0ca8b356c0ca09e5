import { silenceMember } from '../../db/moderation/members';
import { formatDayTime } from '../../shared/dates';
import { UntilReasonDialog, type MemberDialogProps } from './until-reason-dialog';

/**
 * Silence a member (issue 59, item 7), confirmed as Suspend is: with the reason they read in their
 * banner and, optionally, a day it lasts through; without one it lasts until an admin lifts it.
 */
export function SilenceDialog({ member, show, onHide, onExited }: MemberDialogProps) {
  // The operation's definition refuses a blank reason or a day that is not in the future, with its sentence.
  const silence = async (until: number | null, reason: string) => {
    await silenceMember(member.id, true, reason, until);
    return `${member.name} can read, but not write${until === null ? '' : ` until ${formatDayTime(until)}`}.`;
  };

  return (
    <UntilReasonDialog
      title={`Silence ${member.name}`}
      confirmLabel="Silence"
      intro="They can still read. Their banner tells them why, and until when."
      untilLabel="Until (optional)"
      untilHelp="Through the end of that day. Leave it empty to silence them until you lift it."
      firstDay={0}
      show={show}
      onHide={onHide}
      onExited={onExited}
      done="Member silenced"
      act={silence}
    />
  );
}
