import { useLiveQuery } from 'dexie-react-hooks';
import { countThread, getReplies, listReplies, REPLY_PAGE_SIZE, unsentReplyIds } from '../../db/replies/replies';
import type { Reply } from '../../db/types';

export interface ThreadPage {
  /** Replies in the thread (visible and hidden). */
  total: number;
  /** The page shown (the one asked for, kept within 1 and `pages`). */
  page: number;
  pages: number;
  replies: Reply[];
  /** The replies that this page's replies quote, by id (deleted ones included, unknown ones absent). */
  quoted: ReadonlyMap<string, Reply>;
  /** This page's replies with a change this device has not sent yet (offline, or the send failed). */
  unsent: ReadonlySet<string>;
}

/** The page asked for in the address (`?page=N`), 1 when absent or not a page number. */
export const pageFrom = (value: string | null) => {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
};

/** The number of pages of a thread of `total` replies (at least one). */
export const pageCount = (total: number) => Math.max(1, Math.ceil(total / REPLY_PAGE_SIZE));

/**
 * One page of a post's thread, oldest first, with the replies it quotes: one live read, so a reply,
 * an edit, a hide or a delete in any tab re-renders it. Only this page's rows are read (and
 * rendered), however long the thread. `undefined` while the first answer is read.
 */
export function useThreadPage(postId: number | null, requested: number): ThreadPage | undefined {
  return useLiveQuery(async () => {
    if (postId === null) return undefined;
    // The count and the page asked for are read at once; only a page past the end reads again.
    const asked = Math.max(1, requested);
    const [total, first] = await Promise.all([countThread(postId), listReplies(postId, (asked - 1) * REPLY_PAGE_SIZE)]);
    const pages = pageCount(total);
    const page = Math.min(asked, pages);
    const replies = page === asked ? first : await listReplies(postId, (page - 1) * REPLY_PAGE_SIZE);
    const quoteIds = [...new Set(replies.flatMap((reply) => (reply.quoteId ? [reply.quoteId] : [])))];
    const [quotes, unsent] = await Promise.all([
      quoteIds.length > 0 ? getReplies(quoteIds) : [],
      unsentReplyIds(
        postId,
        replies.map((reply) => reply.id),
      ),
    ]);
    const quoted = new Map(quotes.map((reply) => [reply.id, reply]));
    return { total, page, pages, replies, quoted, unsent };
  }, [postId, requested]);
}
