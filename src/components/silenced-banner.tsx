import { IconVolumeOff } from '@tabler/icons-react';
import { ERRORS, silenceMessage } from '../shared/errors';
import type { SilenceShown } from '../hooks/use-silenced';

/**
 * Said on every screen while the staff silence the member, in place of New Post: they read, but
 * their writing is refused (and kept as a draft); until when, and why (issue 59, item 7).
 */
export function SilencedBanner({ silence }: { silence: SilenceShown }) {
  return (
    <div className="alert alert-warning d-flex align-items-center gap-2 mb-0 app-silenced" role="status">
      <IconVolumeOff aria-hidden="true" size={20} className="flex-shrink-0" />
      <span>
        <strong>{ERRORS.silenced.title}.</strong> {silenceMessage(silence.until, silence.reason)}
      </span>
    </div>
  );
}
