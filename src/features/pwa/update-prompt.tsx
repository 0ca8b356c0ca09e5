import { useState } from 'react';
import { IconRefresh } from '@tabler/icons-react';
import { applyUpdate } from './pwa-store';
import { usePwa } from './use-pwa';

/** "A new version is available" with Reload, under the header; the new version waits for the user. */
export function UpdatePrompt() {
  const { updateWaiting } = usePwa();
  const [dismissed, setDismissed] = useState(false);
  const [reloading, setReloading] = useState(false);
  if (!updateWaiting || dismissed) return null;
  return (
    <div className="app-update-prompt" role="status" aria-live="polite">
      <div className="container">
        <IconRefresh aria-hidden="true" size={22} className="text-primary flex-shrink-0" />
        <p className="mb-0 me-auto">
          <strong>A new version is available.</strong> <span className="text-body-secondary">Reload to update; your drafts are kept.</span>
        </p>
        <div className="app-update-actions">
          <button type="button" className="btn btn-link btn-sm" onClick={() => setDismissed(true)}>
            Later
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={reloading}
            onClick={() => {
              setReloading(true);
              applyUpdate();
            }}
          >
            Reload
          </button>
        </div>
      </div>
    </div>
  );
}
