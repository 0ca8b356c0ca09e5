import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { REVIEW_SHORTCUTS } from '../../shared/moderation';

/** The "?" dialog: every key of the review queue and what it does. */
export function ShortcutsDialog({ show, onHide }: { show: boolean; onHide: () => void }) {
  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby="shortcuts-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="shortcuts-title" as="h2" className="h5">
          Keyboard shortcuts
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <table className="app-table app-shortcuts">
          <caption className="visually-hidden">Keys of the review queue</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">What it does</th>
            </tr>
          </thead>
          <tbody>
            {REVIEW_SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.key}>
                <td>
                  <kbd>{shortcut.key}</kbd>
                </td>
                <td>{shortcut.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="small text-body-secondary mt-3 mb-0">Keys do nothing while you type in a field.</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
