import { useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Spinner } from '../../components/spinner';
import { trapTabKey } from '../../components/focus-trap';
import { CharCounter, nearLimit } from '../../components/char-counter';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { startConversation } from '../../db/messages/messages';
import { MESSAGE_LIMITS, validateMessageBody, validateRecipients, validateSubject } from '../../shared/messages';
import { RecipientField, type Recipient } from './recipient-field';
import { AttachmentsEditor, useAttachFiles } from '../../components/attachments/attachments-editor';
import type { Attachment } from '../../shared/attachments';
import { readStoredSession } from '../../db/members/session';
import { clearNewMessageDraft } from '../../db/messages/drafts';
import { useNewMessageDraft } from './use-messages';
import { notSent } from './words';

interface NewMessageDialogProps {
  show: boolean;
  onHide: () => void;
  /** Called with the new conversation's id once it is written here. */
  onStarted: (id: string) => void;
  /** The members' search (tests give their own). */
  search?: (typed: string) => Promise<Recipient[]>;
}

/**
 * The "New message" dialog: To, Subject, Message, and Send message. A new conversation the server
 * refused comes back in it (once per draft, not at each opening), with the refusal's sentence.
 */
export function NewMessageDialog({ show, onHide, onStarted, search }: NewMessageDialogProps) {
  const id = useId();
  const showToast = useToast();
  const [to, setTo] = useState<Recipient[]>([]);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  // Files attached to the first message (kept on the device, uploaded before it is sent, as a reply's).
  const [files, setFiles] = useState<Attachment[]>([]);
  const attach = useAttachFiles({ email: readStoredSession()?.email ?? '', files, onChange: setFiles });
  const draft = useNewMessageDraft();
  // Restored while rendering (not in an effect), once per draft: its conversation's id and words name it.
  const [restored, setRestored] = useState<string | null>(null);
  const draftKey = draft ? `${draft.conversationId}\n${draft.body}` : null;
  if (show && draft && draftKey !== restored) {
    setRestored(draftKey);
    setTo(draft.recipients.map((one) => ({ id: one.id, name: one.name || 'A member' })));
    setSubject(draft.subject);
    setBody(draft.body);
  }
  const problems = {
    to: validateRecipients(to.map((member) => member.id)),
    subject: validateSubject(subject),
    body: validateMessageBody(body),
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problems.to || problems.subject || problems.body) return;
    setBusy(true);
    try {
      const conversation = await startConversation(to, subject, body, files);
      if (draft) await clearNewMessageDraft();
      setTo([]);
      setSubject('');
      setBody('');
      setFiles([]);
      setTried(false);
      onStarted(conversation);
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
      centered
      aria-labelledby={`${id}-title`}
      backdrop={busy ? 'static' : true}
      keyboard={!busy}
      onKeyDown={trapTabKey}
    >
      <Form noValidate onSubmit={(event) => void submit(event)} onDragOver={attach.onDragOver} onDrop={attach.onDrop}>
        <Modal.Header closeButton={!busy} closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            New message
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {draft && (
            <div className="alert alert-warning" role="status">
              {notSent(draft.reason)} It is kept here as a draft.
            </div>
          )}
          <RecipientField value={to} onChange={setTo} invalid={tried ? problems.to?.message : undefined} search={search} />
          <Form.Group className="mb-3" controlId={`${id}-subject`}>
            <Form.Label>Subject</Form.Label>
            <Form.Control
              value={subject}
              maxLength={MESSAGE_LIMITS.subject}
              isInvalid={tried && problems.subject !== null}
              onChange={(event) => setSubject(event.target.value)}
            />
            <Form.Control.Feedback type="invalid">{problems.subject?.message}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group controlId={`${id}-body`}>
            <Form.Label>Message</Form.Label>
            <Form.Control
              as="textarea"
              rows={5}
              value={body}
              isInvalid={(tried && problems.body !== null) || body.trim().length > MESSAGE_LIMITS.body}
              aria-describedby={nearLimit(body.trim().length, MESSAGE_LIMITS.body) ? `${id}-body-count` : undefined}
              onChange={(event) => setBody(event.target.value)}
            />
            {tried && <Form.Control.Feedback type="invalid">{problems.body?.message}</Form.Control.Feedback>}
            {nearLimit(body.trim().length, MESSAGE_LIMITS.body) && (
              <CharCounter id={`${id}-body-count`} length={body.trim().length} max={MESSAGE_LIMITS.body} noun="A message" />
            )}
            <Form.Text>Markdown works here, as in a reply.</Form.Text>
          </Form.Group>
          <AttachmentsEditor files={files} attach={attach} disabled={busy} compact />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={busy || attach.preparing.length > 0}>
            {busy && <Spinner className="me-2" />}
            Send message
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
