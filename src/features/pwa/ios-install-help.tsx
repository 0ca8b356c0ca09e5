import Modal from 'react-bootstrap/Modal';
import { IconShare2, IconSquarePlus } from '@tabler/icons-react';
import { trapTabKey } from '../../components/focus-trap';

/** iOS Safari has no install prompt: these are the three taps that add the app to the Home Screen. */
export function IosInstallHelp({ show, onHide }: { show: boolean; onHide: () => void }) {
  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby="ios-install-title" onKeyDown={trapTabKey}>
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
  );
}
