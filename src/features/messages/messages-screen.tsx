import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { MESSAGES_CLOSED } from '../../shared/messages';
import { ConversationList } from './conversation-list';
import { NewMessageDialog } from './new-message-dialog';
import type { Recipient } from './recipient-field';
import { useMessagesOpen, useNewMessageDraft } from './use-messages';
import { MESSAGES_NEED_SERVER, notSent } from './words';

/**
 * /messages: the heading, New message (or why not yet), a refused new message kept as a draft, the
 * member's conversations; local-only: why there are none.
 */
export function MessagesScreen({ connected, search }: { connected: boolean; search?: (typed: string) => Promise<Recipient[]> }) {
  const [writing, setWriting] = useState(false);
  const open = useMessagesOpen();
  const draft = useNewMessageDraft();
  const navigate = useNavigate();
  useEffect(() => {
    document.title = 'Messages · Insight Exchange';
  }, []);
  return (
    <div className="container app-page-body">
      <div className="app-page-title d-flex justify-content-between align-items-center gap-2">
        <h1 className="h2 mb-0">Messages</h1>
        {connected && open && (
          <button type="button" className="btn btn-primary" onClick={() => setWriting(true)}>
            New message
          </button>
        )}
      </div>
      {!connected ? (
        <p>{MESSAGES_NEED_SERVER}</p>
      ) : (
        <>
          {open === false && <p className="alert alert-info">{MESSAGES_CLOSED}</p>}
          {draft && (
            <div className="alert alert-warning d-flex justify-content-between align-items-center gap-2" role="status">
              <span>{notSent(draft.reason)} It is kept as a draft.</span>
              <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => setWriting(true)}>
                Open draft
              </button>
            </div>
          )}
          <ConversationList />
          <NewMessageDialog
            show={writing}
            onHide={() => setWriting(false)}
            onStarted={(id) => {
              setWriting(false);
              navigate(paths.conversation(id));
            }}
            search={search}
          />
        </>
      )}
    </div>
  );
}
