import { useEffect, useEffectEvent, useRef, useState, type RefObject } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { markRead, readPositionOf } from '../../db/follows/reads';
import { firstUnreadReplyId } from '../../db/follows/first-unread';
import { useSeenInView } from '../../hooks/use-seen-in-view';
import { READ_COALESCE_MS } from '../../shared/follows';
import type { Reply } from '../../db/types';

/** The first reply new to the member as the page opened: its id, or null when none is. */
interface Opened {
  postId: number;
  firstUnread: string | null;
}

/**
 * The member's read position on the post page. `firstUnread`: the first reply new to them when the
 * page opened (null: none; undefined while read), kept for the visit so the "New replies" divider
 * stays where it was while they read. As replies come half into view, the latest one seen becomes
 * their read position (markRead): one operation per READ_COALESCE_MS however fast they scroll, and
 * the last one when they leave. A post with no replies is read when it opens.
 */
export function useReadTracking(
  postId: number,
  reader: string,
  replies: readonly Reply[] | undefined,
  total: number | undefined,
  list: RefObject<HTMLElement | null>,
) {
  // null: never read (a live read's undefined is "still reading").
  const position = useLiveQuery(async () => (await readPositionOf(reader, postId)) ?? null, [reader, postId]);
  const [opened, setOpened] = useState<Opened | undefined>();
  const asked = useRef<number | null>(null);
  useEffect(() => {
    if (position === undefined || asked.current === postId) return;
    asked.current = postId;
    const first = position === null ? Promise.resolve(null) : firstUnreadReplyId(postId, position, reader);
    void first.then((firstUnread) => setOpened({ postId, firstUnread }));
  }, [position, postId, reader]);

  // The latest reply seen and not yet sent: sent at the next beat, or when the page goes.
  const pending = useRef<number | null>(null);
  const flush = useEffectEvent(() => {
    const readTo = pending.current;
    pending.current = null;
    if (readTo !== null && (position ?? -1) < readTo) markRead(postId, readTo).catch(() => undefined);
  });
  useEffect(() => {
    const timer = setInterval(() => flush(), READ_COALESCE_MS);
    return () => {
      clearInterval(timer);
      flush();
    };
  }, [postId]);

  useSeenInView(list, '[data-reply-id]', 'data-reply-id', replies?.map((reply) => reply.id).join('\u0000'), (ids) => {
    for (const reply of replies ?? [])
      if (ids.includes(reply.id) && reply.createdAt > (pending.current ?? -1)) pending.current = reply.createdAt;
  });

  // Opening a post with no replies reads it (position 0).
  useEffect(() => {
    if (total === 0 && position === null) markRead(postId, 0).catch(() => undefined);
  }, [total, position, postId]);

  return { firstUnread: opened?.postId === postId ? opened.firstUnread : undefined };
}
