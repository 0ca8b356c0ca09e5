import { useId, useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { CharCounter } from '../../components/char-counter';
import { Spinner } from '../../components/spinner';
import { trapTabKey } from '../../components/focus-trap';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { renameMember, takeRefusedName } from '../../db/preferences/preferences';
import { LIMITS } from '../../shared/post-rules';
import { validateName } from '../../shared/validation';

/** What an empty Display name is told. */
export const EMPTY_NAME = 'Enter a display name.';

interface EditProfileDialogProps {
  email: string;
  name: string;
  show: boolean;
  onHide: () => void;
}

/** "Edit Profile": the member's display name, shown at once everywhere and synced to their devices. */
export function EditProfileDialog({ email, name, show, onHide }: EditProfileDialogProps) {
  const id = useId();
  const showToast = useToast();
  const [value, setValue] = useState(name);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const edited = useRef(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // One field: an empty one is named as such (the sign-up's sentence for it speaks of all its fields).
    const invalid = value.trim() ? validateName(value)?.message : EMPTY_NAME;
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setProblem(null);
    if (value.trim() === name) {
      onHide();
      return;
    }
    setBusy(true);
    try {
      await renameMember(email, value.trim());
      showToast({ title: 'Profile updated', description: 'Your display name has been changed.' });
      onHide();
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      show={show}
      onHide={onHide}
      onEnter={() => {
        setValue(name);
        setProblem(null);
        edited.current = false;
        // A name the server refused (taken) comes back with its sentence, so it need not be typed again.
        void takeRefusedName(email)
          .then((refused) => {
            // Not over what the member began typing meanwhile.
            if (!refused || edited.current) return;
            setValue(refused.name);
            setProblem(refused.reason);
          })
          .catch(() => undefined);
      }}
      centered
      aria-labelledby={`${id}-title`}
      backdrop={busy ? 'static' : true}
      keyboard={!busy}
      onKeyDown={trapTabKey}
    >
      <Form noValidate onSubmit={(event) => void submit(event)}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            Edit Profile
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group controlId={`${id}-name`}>
            <Form.Label>Display name</Form.Label>
            <Form.Control
              value={value}
              maxLength={LIMITS.name}
              autoComplete="name"
              autoFocus
              disabled={busy}
              isInvalid={problem !== null}
              aria-invalid={problem !== null}
              aria-describedby={`${id}-count${problem ? ` ${id}-problem` : ''}`}
              onChange={(event) => {
                edited.current = true;
                setValue(event.target.value);
                setProblem(null);
              }}
            />
            {problem && (
              <div id={`${id}-problem`} className="invalid-feedback d-block" role="alert">
                {problem}
              </div>
            )}
            <CharCounter id={`${id}-count`} length={value.length} max={LIMITS.name} noun="A display name" />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy && <Spinner className="me-2" />}
            Save changes
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
