import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useConversations } from './use-messages';
import { unreadMessagesDescription } from '../../shared/messages';
import { Age } from '../../components/age';

/** The member's conversations, newest first: subject, the others' names, when the last message came, the unread count. */
export function ConversationList() {
  const conversations = useConversations();
  if (conversations === undefined) return null;
  if (conversations.length === 0) return <p className="text-body-secondary">No messages yet.</p>;
  return (
    <ul className="list-group" aria-label="Conversations">
      {conversations.map((conversation) => (
        <li key={conversation.id} className="list-group-item d-flex justify-content-between align-items-start gap-2">
          <div className="app-break">
            <Link to={paths.conversation(conversation.id)} className={conversation.unread > 0 ? 'fw-bold' : undefined}>
              {conversation.subject}
            </Link>
            <div className="small text-body-secondary">{conversation.others.join(', ')}</div>
          </div>
          <div className="d-flex align-items-center gap-2 flex-shrink-0">
            <Age at={conversation.updatedAt} className="small text-body-secondary" />
            {conversation.unread > 0 && (
              <span className="badge rounded-pill text-bg-primary" aria-label={unreadMessagesDescription(conversation.unread)}>
                {conversation.unread}
              </span>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
