import { useParams } from 'react-router-dom';
import { ConversationView } from '../features/messages/conversation-view';
import { MessagesScreen } from '../features/messages/messages-screen';
import { useSyncStatus } from '../hooks/use-sync-status';

/** /messages (issue 61): the member's conversations; connected mode only. */
export function MessagesPage() {
  return <MessagesScreen connected={useSyncStatus().state !== 'local'} />;
}

/** /messages/:id: one conversation; a local-only device says why it has none. */
export function ConversationPage() {
  const { id = '' } = useParams();
  return <ConversationView id={id} connected={useSyncStatus().state !== 'local'} />;
}
