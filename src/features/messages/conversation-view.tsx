import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Markdown } from '../../components/markdown/markdown';
import { AttachmentList } from '../../components/attachments/attachment-list';
import { AttachmentsEditor, useAttachFiles } from '../../components/attachments/attachments-editor';
import type { Attachment } from '../../shared/attachments';
import { readStoredSession } from '../../db/members/session';
import { CharCounter, nearLimit } from '../../components/char-counter';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { paths } from '../../config/paths';
import { leaveConversation, markConversationRead, sendMessage } from '../../db/messages/messages';
import { MESSAGE_LIMITS, validateMessageBody } from '../../shared/messages';
import { ERRORS } from '../../shared/errors';
import { useConversation, useMessageDraft, useNewMessageDraft } from './use-messages';
import { clearMessageDraft } from '../../db/messages/drafts';
import { FlagMessageDialog } from './flag-message-dialog';
import { useLiveQuery } from 'dexie-react-hooks';
import { ownMemberIdOfSession } from '../../db/messages/messages';
import { MESSAGES_NEED_SERVER, notSent } from './words';
import { Age } from '../../components/age';
import { UnsentBadge } from '../../components/unsent-badge';

/**
 * A conversation's page: its subject, "Participants", its messages, "Your reply" and "Leave
 * conversation"; on a local-only device (a link followed there), why it has no messages.
 */
export function ConversationView({ id, connected = true }: { id: string; connected?: boolean }) {
  if (!connected)
    return (
      <div className="container app-page-body">
        <h1 className="h2">Messages</h1>
        <p>{MESSAGES_NEED_SERVER}</p>
      </div>
    );
  return <Conversation id={id} />;
}

function Conversation({ id }: { id: string }) {
  const formId = useId();
  const found = useConversation(id);
  const navigate = useNavigate();
  const showToast = useToast();
  const [reply, setReply] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const replyBox = useRef<HTMLTextAreaElement>(null);
  const [flagging, setFlagging] = useState<string | null>(null);
  // Files attached to the message (kept on the device, uploaded before it is sent, as a reply's).
  const [files, setFiles] = useState<Attachment[]>([]);
  const attach = useAttachFiles({ email: readStoredSession()?.email ?? '', files, onChange: setFiles });
  const me = useLiveQuery(() => ownMemberIdOfSession(), []);
  const problem = validateMessageBody(reply);
  const newest = found?.messages.at(-1)?.createdAt;
  // A message the server refused comes back into the reply box once, with its sentence above it.
  // Once the draft is gone (sent again, discarded), the same words refused again come back again.
  const draft = useMessageDraft(id);
  const [restored, setRestored] = useState<string | null>(null);
  if (draft === null && restored !== null) setRestored(null);
  if (draft && restored !== draft.body) {
    setRestored(draft.body);
    // A draft that grew (a second refusal) replaces its earlier words still untouched in the box.
    const before = restored;
    setReply((now) => (now.trim() === '' || now === before ? draft.body : `${now}\n\n${draft.body}`));
  }

  // Opening it (and each message arriving while it is open) marks it read.
  useEffect(() => {
    if (newest !== undefined) void markConversationRead(id).catch(() => undefined);
  }, [id, newest]);

  useEffect(() => {
    if (found) document.title = `${found.conversation.subject} · Messages · Insight Exchange`;
  }, [found]);

  if (found === undefined) return null;
  if (found === null) return <NotFound id={id} draft={draft ?? undefined} />;
  const { conversation, messages } = found;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problem) return;
    setBusy(true);
    try {
      await sendMessage(id, reply, files);
      if (draft) await clearMessageDraft(id);
      setReply('');
      setFiles([]);
      setTried(false);
      // Send was disabled while it sent (the focus left it): the next words go in the box again.
      replyBox.current?.focus();
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };

  const leave = async () => {
    try {
      await leaveConversation(id);
      navigate(paths.messages);
    } catch (error) {
      showToast(errorToast(error));
    }
  };

  return (
    <div className="container app-page-body">
      <div className="app-page-title d-flex justify-content-between align-items-center gap-2">
        <h1 className="h2 mb-0 app-break">{conversation.subject}</h1>
        <button type="button" className="btn btn-outline-danger btn-sm flex-shrink-0" onClick={() => void leave()}>
          Leave conversation
        </button>
      </div>
      <ul className="list-inline small text-body-secondary app-break" aria-label="Participants">
        {conversation.participants.map((participant) => (
          <li key={participant.id} className="list-inline-item">
            {participant.name || 'A member'}
            {participant.left ? ' (left)' : ''}
          </li>
        ))}
      </ul>
      <ol className="list-unstyled" aria-label="Messages">
        {messages.map((message) => (
          <li key={message.id} className="mb-3 border-bottom pb-2">
            <div className="small fw-semibold d-flex justify-content-between gap-2">
              <span className="d-flex flex-wrap align-items-center gap-2">
                <span className="app-break">{message.author}</span>
                <Age at={message.createdAt} className="fw-normal text-body-secondary" />
                {message.seq === undefined && <UnsentBadge />}
              </span>
              {me !== undefined && message.authorId !== me && (
                <button
                  type="button"
                  className="btn btn-link btn-sm p-0"
                  aria-label={`Flag the message of ${message.author}`}
                  onClick={() => setFlagging(message.id)}
                >
                  Flag
                </button>
              )}
            </div>
            <Markdown source={message.body} />
            {message.attachments && message.attachments.length > 0 && <AttachmentList files={message.attachments} />}
          </li>
        ))}
      </ol>
      {flagging && <FlagMessageDialog messageId={flagging} show onHide={() => setFlagging(null)} />}
      <form noValidate onSubmit={(event) => void submit(event)} onDragOver={attach.onDragOver} onDrop={attach.onDrop}>
        {draft && (
          <div className="alert alert-warning" role="status">
            {notSent(draft.reason)} It is kept below as a draft.
          </div>
        )}
        <label htmlFor={`${formId}-reply`} className="form-label">
          Your reply
        </label>
        <textarea
          ref={replyBox}
          id={`${formId}-reply`}
          className={`form-control${(tried && problem) || reply.trim().length > MESSAGE_LIMITS.body ? ' is-invalid' : ''}`}
          rows={3}
          value={reply}
          aria-invalid={(tried && problem !== null) || reply.trim().length > MESSAGE_LIMITS.body || undefined}
          aria-describedby={nearLimit(reply.trim().length, MESSAGE_LIMITS.body) ? `${formId}-count` : undefined}
          onChange={(event) => setReply(event.target.value)}
          onPaste={attach.onPaste}
        />
        {nearLimit(reply.trim().length, MESSAGE_LIMITS.body) && (
          <CharCounter id={`${formId}-count`} length={reply.trim().length} max={MESSAGE_LIMITS.body} noun="A message" />
        )}
        {tried && problem && <div className="invalid-feedback">{problem.message}</div>}
        <AttachmentsEditor files={files} attach={attach} disabled={busy} compact />
        <button type="submit" className="btn btn-primary mt-2" disabled={busy || attach.preparing.length > 0}>
          Send
        </button>
      </form>
    </div>
  );
}

/**
 * A conversation this device does not hold for the member (another's, or one they left): not
 * available; a message of theirs the server refused there stays readable and copyable until
 * discarded, and a new conversation it refused says where its words wait.
 */
function NotFound({ id, draft }: { id: string; draft?: { body: string; reason: string } }) {
  const formId = useId();
  const started = useNewMessageDraft();
  return (
    <div className="container app-page-body">
      <h1 className="h2">Conversation not found</h1>
      <p>{ERRORS.conversation_not_found.message}</p>
      {started?.conversationId === id && (
        <p className="alert alert-warning" role="status">
          {notSent(started.reason)} It is kept as a draft in New message, on Messages.
        </p>
      )}
      {draft && (
        <div className="alert alert-warning">
          <p>{notSent(draft.reason)} Copy it before you discard it.</p>
          <label htmlFor={`${formId}-unsent`} className="form-label">
            Your unsent message
          </label>
          <textarea id={`${formId}-unsent`} className="form-control mb-2" rows={4} readOnly value={draft.body} />
          <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => void clearMessageDraft(id)}>
            Discard draft
          </button>
        </div>
      )}
    </div>
  );
}
