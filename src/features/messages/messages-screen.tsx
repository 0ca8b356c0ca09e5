import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { MESSAGES_CLOSED } from '../../shared/messages';
import { ConversationList } from './conversation-list';
import { NewMessageDialog } from './new-message-dialog';
import type { Recipient } from './recipient-field';
import { useMessagesOpen } from './use-messages';
import { MESSAGES_NEED_SERVER } from './words';

/** /messages: the heading, New message (or why not yet), the member's conversations; local-only: why there are none. */
export function MessagesScreen({ connected, search }: { connected: boolean; search?: (typed: string) => Promise<Recipient[]> }) {
  const [writing, setWriting] = useState(false);
  const open = useMessagesOpen();
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
