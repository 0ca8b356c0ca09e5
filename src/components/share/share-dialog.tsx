import { useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { trapTabKey } from '../focus-trap';
import { copyText } from '../../lib/share';

interface ShareDialogProps {
  url: string;
  show: boolean;
  onCopied: () => void;
  onHide: () => void;
  onExited: () => void;
}

/**
 * "Share this post", for when the clipboard refused: the link in a read-only field (selected on
 * focus) and Copy, which asks the clipboard again and, if it still refuses, selects the link and
 * says which keys copy it.
 */
export function ShareDialog({ url, show, onCopied, onHide, onExited }: ShareDialogProps) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState(false);

  const copy = async () => {
    if (await copyText(url)) {
      onCopied();
      onHide();
      return;
    }
    field.current?.focus();
    field.current?.select();
    setRefused(true);
  };

  return (
    <Modal show={show} onHide={onHide} onExited={onExited} centered aria-labelledby={`${id}-title`} onKeyDown={trapTabKey}>
      <Modal.Header>
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          Share this post
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form.Group controlId={`${id}-link`}>
          <Form.Label>Link to this post</Form.Label>
          <Form.Control
            ref={field}
            readOnly
            value={url}
            autoFocus
            onFocus={(event) => event.currentTarget.select()}
            aria-describedby={`${id}-help`}
          />
        </Form.Group>
        <p id={`${id}-help`} className="small text-body-secondary mt-2 mb-0">
          Anyone who can see this post can open it.
        </p>
        <p role="status" className="small fw-semibold mt-2 mb-0">
          {refused ? 'Press Ctrl+C (⌘C on a Mac) to copy.' : ''}
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide}>
          Close
        </Button>
        <Button onClick={() => void copy()}>Copy</Button>
      </Modal.Footer>
    </Modal>
  );
}
