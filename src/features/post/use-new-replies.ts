import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { markSeen, newReplyIds } from '../../db/posts/whats-new';
import { useVisitSince } from '../../hooks/use-visit';

const NONE: readonly string[] = [];

/**
 * The replies of a post that arrived since the member's last visit: `unseen` (live) and `marked`
 * (every reply shown "New" on this page: once seen it stays marked until the post is opened again).
 */
export function useNewReplies(email: string, postId: number) {
  const since = useVisitSince(email);
  const unseen = useLiveQuery(async () => (since ? newReplyIds(email, postId, since) : NONE), [email, postId, since]) ?? NONE;
  const [marked, setMarked] = useState<ReadonlySet<string>>(() => new Set());
  if (unseen.some((id) => !marked.has(id))) setMarked(new Set([...marked, ...unseen]));
  const seen = (ids: string[]) => void markSeen(email, { replyIds: ids }).catch(() => undefined);
  return { unseen, marked, seen };
}
