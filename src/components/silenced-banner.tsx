import { IconVolumeOff } from '@tabler/icons-react';
import { ERRORS } from '../shared/errors';

/** Said on every screen while the staff silence the member: they read, but their writing is refused (and kept as a draft). */
export function SilencedBanner() {
  return (
    <div className="alert alert-warning d-flex align-items-center gap-2 mb-0 app-silenced" role="status">
      <IconVolumeOff aria-hidden="true" size={20} className="flex-shrink-0" />
      <span>
        <strong>{ERRORS.silenced.title}.</strong> {ERRORS.silenced.message}
      </span>
    </div>
  );
}
