import { lazy, Suspense, useState } from 'react';
import { IconDownload } from '@tabler/icons-react';
import { isIosSafari, promptInstall } from './pwa-store';
import { usePwa } from './use-pwa';

// The iOS steps (and the dialog code they need) load only on iOS Safari, when asked for.
const IosInstallHelp = lazy(() => import('./ios-install-help').then((module) => ({ default: module.IosInstallHelp })));

/** Install: the browser's own prompt where it offers one, short instructions on iOS Safari. */
export function InstallButton({ className = '' }: { className?: string }) {
  const { canInstall, installed } = usePwa();
  const [showHelp, setShowHelp] = useState(false);
  const ios = isIosSafari();
  if (installed || (!canInstall && !ios)) return null;
  return (
    <>
      <button
        type="button"
        className={`btn btn-outline-light btn-sm app-install ${className}`}
        onClick={() => (canInstall ? void promptInstall() : setShowHelp(true))}
      >
        <IconDownload aria-hidden="true" size={16} />
        <span>Install</span>
      </button>
      {ios && showHelp && (
        <Suspense fallback={null}>
          <IosInstallHelp show={showHelp} onHide={() => setShowHelp(false)} />
        </Suspense>
      )}
    </>
  );
}
