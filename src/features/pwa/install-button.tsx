import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { IconDownload, IconShare2, IconSquarePlus } from '@tabler/icons-react';
import { trapTabKey } from '../../components/focus-trap';
import { isIosSafari, promptInstall } from './pwa-store';
import { usePwa } from './use-pwa';

/** Install: the browser's own prompt where it offers one, short instructions on iOS Safari. */
export function InstallButton({ className = '' }: { className?: string }) {
  const { canInstall, installed } = usePwa();
  const [showHelp, setShowHelp] = useState(false);
  const ios = isIosSafari();
  if (installed || (!canInstall && !ios)) return null;
  return (
    <>
      <Button
        variant="outline-light"
        size="sm"
        className={`app-install ${className}`}
        onClick={() => (canInstall ? void promptInstall() : setShowHelp(true))}
      >
        <IconDownload aria-hidden="true" size={16} />
        <span>Install</span>
      </Button>
      {ios && (
        <Modal show={showHelp} onHide={() => setShowHelp(false)} centered aria-labelledby="ios-install-title" onKeyDown={trapTabKey}>
          <Modal.Header closeButton closeLabel="Close">
            <Modal.Title id="ios-install-title" as="h2" className="h5">
              Add to Home Screen
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <ol className="app-install-steps mb-0">
              <li>
                Tap <IconShare2 aria-label="Share" size={18} /> <strong>Share</strong> in Safari&apos;s toolbar.
              </li>
              <li>
                Choose <IconSquarePlus aria-hidden="true" size={18} /> <strong>Add to Home Screen</strong>.
              </li>
              <li>
                Tap <strong>Add</strong>. Insight Exchange then opens like an app, even offline.
              </li>
            </ol>
          </Modal.Body>
        </Modal>
      )}
    </>
  );
}
