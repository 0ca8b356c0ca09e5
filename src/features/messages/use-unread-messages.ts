import { useLiveQuery } from 'dexie-react-hooks';
import { countUnreadMessages } from '../../db/messages/inbox';

/**
 * How many messages the member has not read (the header's Messages), live; undefined while read or
 * when not `enabled`. Apart from the messages screens' hooks: the protected area's frame uses it.
 */
export function useUnreadMessages(enabled = true): number | undefined {
  return useLiveQuery(() => (enabled ? countUnreadMessages() : undefined), [enabled]);
}
