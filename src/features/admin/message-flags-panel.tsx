import { useEffect, useState } from 'react';
import { useToast } from '../../components/toast/toast-context';
import { useSyncStatus } from '../../hooks/use-sync-status';
import { errorToast } from '../../components/toast/error-toast';
import { isDataError } from '../../db/storage/errors';
import { FLAG_REASON_LABELS, type FlagReason } from '../../shared/moderation';
import type { FlaggedConversation, MessageFlag } from '../../sync/message-flags';

// Loaded when asked: its zod schemas, built as the module loads, probe `new Function`, which the CSP
// refuses (a report on every /admin of a local-only forum, where this panel shows nothing).
const listMessageFlags = async () => (await import('../../sync/message-flags')).listMessageFlags();
const openFlaggedConversation = async (id: string) => (await import('../../sync/message-flags')).openFlaggedConversation(id);
// Through the outbox as every admin's operation (the server writes it to the staff log).
const dismissMessageFlags = async (messageId: string) => (await import('../../db/messages/messages')).dismissMessageFlags(messageId);

/** "Open conversation" on a flag dismissed meanwhile: the flag leaves the list. */
export const FLAG_GONE_TOAST = {
  title: 'Flag already dismissed',
  description: 'This flag was dismissed meanwhile: its conversation is no longer open to admins.',
};

const reasonLabel = (reason: string) => FLAG_REASON_LABELS[reason as FlagReason] ?? reason;

/**
 * Flagged messages (issue 61): who flagged a message and why; "Open conversation" reads it, and the
 * server writes that to the staff log; "Dismiss" settles the message's flags (the dismissMessageFlags
 * operation, in the staff log too). Admins read no other conversation. Connected mode only.
 */
export function MessageFlagsPanel(props: Parameters<typeof FlagsOfMessages>[0]) {
  // A local-only forum has no messages.
  return useSyncStatus().state === 'local' ? null : <FlagsOfMessages {...props} />;
}

function FlagsOfMessages({
  load = listMessageFlags,
  open = openFlaggedConversation,
  dismiss = dismissMessageFlags,
}: {
  load?: () => Promise<MessageFlag[]>;
  open?: (id: string) => Promise<FlaggedConversation>;
  dismiss?: (messageId: string) => Promise<void>;
}) {
  const showToast = useToast();
  const [flags, setFlags] = useState<MessageFlag[] | undefined>();
  const [opened, setOpened] = useState<FlaggedConversation | undefined>();

  useEffect(() => {
    let current = true;
    load().then(
      (found) => current && setFlags(found),
      (error: unknown) => current && (setFlags([]), showToast(errorToast(error))),
    );
    return () => {
      current = false;
    };
  }, [load, showToast]);

  const read = async (id: string) => {
    try {
      setOpened(await open(id));
    } catch (error) {
      if (isDataError(error, 'conversation_not_found')) {
        // Dismissed meanwhile (by another admin, or in another tab): it opens nothing any more.
        setFlags((now) => now?.filter((flag) => flag.id !== id));
        showToast(FLAG_GONE_TOAST);
        return;
      }
      showToast(errorToast(error));
    }
  };

  // The message's flags leave the list once queued (the outbox takes it to the server, as every admin's operation).
  const settle = async (messageId: string) => {
    try {
      await dismiss(messageId);
      setFlags((now) => now?.filter((flag) => flag.messageId !== messageId));
      setOpened((now) => (now?.flag.messageId === messageId ? undefined : now));
    } catch (error) {
      showToast(errorToast(error));
    }
  };

  return (
    <section aria-labelledby="message-flags-title" className="mt-4">
      <h2 id="message-flags-title" className="h5">
        Flagged messages
      </h2>
      {flags === undefined ? null : flags.length === 0 ? (
        <p className="text-body-secondary">No flagged messages.</p>
      ) : (
        <ul className="list-group" aria-label="Flagged messages">
          {flags.map((flag) => (
            <li key={flag.id} className="list-group-item d-flex justify-content-between align-items-start gap-2">
              <div>
                {flag.flagger} flagged a message: {reasonLabel(flag.reason)}
                {flag.text && <div className="small text-body-secondary">{flag.text}</div>}
              </div>
              <div className="d-flex gap-2 flex-shrink-0">
                <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => void read(flag.id)}>
                  Open conversation
                </button>
                <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => void settle(flag.messageId)}>
                  Dismiss
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {opened && (
        <article className="card mt-3" aria-labelledby="flagged-conversation-title">
          <div className="card-body">
            <h3 id="flagged-conversation-title" className="h6">
              {opened.conversation.subject}
            </h3>
            <p className="small text-body-secondary">
              Between {opened.conversation.participants.map((one) => one.name).join(', ')}. Opening it was written to the staff log.
            </p>
            <ol className="list-unstyled mb-0" aria-label="Messages of the flagged conversation">
              {opened.messages.map((message) => (
                <li key={message.id} className={message.id === opened.flag.messageId ? 'border-start border-danger ps-2 mb-2' : 'mb-2'}>
                  <div className="small fw-semibold">
                    {message.author}
                    {message.id === opened.flag.messageId ? ' (flagged)' : ''}
                  </div>
                  <div style={{ whiteSpace: 'pre-wrap' }}>{message.body}</div>
                </li>
              ))}
            </ol>
          </div>
        </article>
      )}
    </section>
  );
}
