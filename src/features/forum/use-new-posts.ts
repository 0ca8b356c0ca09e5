import { useState } from 'react';
import { useAfterFirstPosts } from '../../hooks/use-after-first-posts';
import { useCoalescedLiveValue } from '../../hooks/use-coalesced-live-value';

const loadWhatsNew = () => import('../../db/posts/whats-new');

export interface NewPosts {
  /** New posts not seen yet (the pill's count), newest first; live. */
  unseen: readonly number[];
  /** Every post marked "New" in this view: once seen it stays marked until the forum is opened again. */
  marked: ReadonlySet<number>;
  /** Records posts as seen (they were at least half in view). */
  seen: (ids: number[]) => void;
}

const NONE: readonly number[] = [];
// What's new reads every post that arrived since the last visit, and the member's seen marks.
const WHATS_NEW_TABLES = ['posts', 'seen'] as const;

/** The posts that arrived since the member's last visit (`since` undefined while it is read). */
export function useNewPosts(email: string, since: number | undefined): NewPosts {
  const whatsNew = useAfterFirstPosts(loadWhatsNew);
  const read = since && whatsNew ? () => whatsNew.newPostIds(email, since) : undefined;
  const unseen = useCoalescedLiveValue(read, WHATS_NEW_TABLES, `${email} ${since}`) ?? NONE;
  const [marked, setMarked] = useState<ReadonlySet<number>>(() => new Set());
  if (unseen.some((id) => !marked.has(id))) setMarked(new Set([...marked, ...unseen]));
  const seen = (ids: number[]) => void whatsNew?.markSeen(email, { postIds: ids }).catch(() => undefined);
  return { unseen, marked, seen };
}
