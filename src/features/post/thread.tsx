import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigationType, useSearchParams } from 'react-router-dom';
import { IconMessages } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { useUndoableDelete } from '../../components/toast/use-undoable-delete';
import { deleteReply, REPLY_PAGE_SIZE, threadIndex } from '../../db/replies/replies';
import { formatCount } from '../../lib/format';
import { latestOnly } from '../../lib/latest-only';
import { ERRORS } from '../../shared/errors';
import type { Post, Reply, Session } from '../../db/types';
import { ConfirmDialog } from '../../components/confirm/confirm-dialog';
import { ReplyBox } from './reply-box';
import { focusWriting } from '../../components/markdown/write-preview';
import { ReplyItem } from './reply-item';
import { useNewReplies } from './use-new-replies';
import { useSeenInView } from '../../hooks/use-seen-in-view';
import { ReplyPages } from './reply-pages';
import { useReadTracking } from './use-read-tracking';
import './new-replies.scss';
import type { ThreadPage } from './use-thread-page';

/** How long a reply that a link or a new post led to stays marked. */
const HIGHLIGHT_MS = 2_500;

const smooth = (): ScrollBehavior => (matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');

/**
 * A post's conversation: "Replies (N)" (the readable replies, as on its card), one page of them (the page in the address), the pages
 * nav and the reply box. `?reply=<id>` opens the page holding that reply and scrolls to it.
 */
export function Thread({ post, viewer, thread }: { post: Post; viewer: Session; thread: ThreadPage | undefined }) {
  const [params, setParams] = useSearchParams();
  // A notification's link names the reply in the hash (#reply-<id>): the same as ?reply=<id>.
  const { hash } = useLocation();
  const replyParam = params.get('reply') ?? (hash.startsWith('#reply-') ? decodeURIComponent(hash.slice('#reply-'.length)) : null);
  const showToast = useToast();
  const deleteWithUndo = useUndoableDelete();
  const heading = useRef<HTMLHeadingElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [quote, setQuote] = useState<Reply | null>(null);
  const [deleting, setDeleting] = useState<{ reply: Reply; open: boolean; done?: boolean } | null>(null);
  // The reply to bring into view once its page is on screen; it stays marked for a moment.
  const [target, setTarget] = useState<{ id: string; focus: boolean; seq: number } | null>(null);
  const scrolledTo = useRef(0);
  const targets = useRef(0);
  // What's new: replies that arrived since the last visit, seen once half in view.
  const fresh = useNewReplies(viewer.email, post.id);
  const replyList = useRef<HTMLOListElement>(null);
  const unseenShown = thread?.replies.filter((reply) => fresh.unseen.includes(reply.id)).map((reply) => reply.id) ?? [];
  useSeenInView(
    replyList,
    unseenShown.length ? unseenShown.map((id) => `[data-reply-id="${CSS.escape(id)}"]`).join(',') : 'none-new',
    'data-reply-id',
    unseenShown.join('\u0000'),
    fresh.seen,
  );

  /** Opens the page that holds a reply at `index` in the thread (the address keeps the page) and marks the reply. */
  const showReply = useCallback(
    (replyId: string, index: number, focus: boolean) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('reply');
          if (index >= 0) next.set('page', String(Math.floor(index / REPLY_PAGE_SIZE) + 1));
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
      // Numbered by a counter that never goes back: once a mark has faded (target null), the next
      // one must not take a number already scrolled to, or it would be marked and never focused.
      if (index >= 0) setTarget({ id: replyId, focus, seq: ++targets.current });
    },
    [setParams],
  );
  // The latest request wins (latestOnly): a reply just posted, whose place is still being read,
  // never takes the mark (or the focus) from a link followed after it.
  const places = useRef(latestOnly());
  const goToReply = useCallback(
    (replyId: string, focus: boolean) =>
      places.current.run(
        threadIndex(replyId).catch(() => -1),
        // A reply not on this device yet keeps the link's `?reply=` until sync brings it.
        (index) => index >= 0 && showReply(replyId, index, focus),
      ),
    [showReply],
  );

  // A link to a reply (a quote's, or a shared one): find its page, again whenever the thread grows.
  const total = thread?.total;
  useEffect(() => {
    if (replyParam) goToReply(replyParam, true);
  }, [replyParam, goToReply, total]);

  // Following (issue 62): the read position moves as replies are seen; a post read before opens at
  // its first new reply, after a "New replies" divider, unless a link names a reply or a page, or
  // Back returns to where the member was (scroll memory keeps that).
  const { firstUnread } = useReadTracking(post.id, viewer.email, thread?.replies, total, replyList);
  const navigation = useNavigationType();
  // The post last opened at its first new reply (once per post, even when this thread shows another).
  const openedAtUnread = useRef<number | null>(null);
  const askedPlace = replyParam !== null || params.has('page') || navigation === 'POP';
  useEffect(() => {
    if (!firstUnread || openedAtUnread.current === post.id) return;
    openedAtUnread.current = post.id;
    if (!askedPlace) goToReply(firstUnread, false);
  }, [firstUnread, askedPlace, goToReply, post.id]);

  const onPage = thread?.replies.some((reply) => reply.id === target?.id) ?? false;
  useEffect(() => {
    if (!target || !onPage || scrolledTo.current === target.seq) return;
    scrolledTo.current = target.seq;
    const element = document.getElementById(`reply-${target.id}`);
    element?.scrollIntoView({ block: 'center', behavior: smooth() });
    if (target.focus) element?.focus({ preventScroll: true });
  }, [target, onPage]);
  useEffect(() => {
    if (!target || !onPage) return undefined;
    const timer = setTimeout(() => setTarget((current) => (current === target ? null : current)), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [target, onPage]);
  const highlighted = onPage ? target?.id : undefined;

  const startQuote = useCallback((reply: Reply) => {
    setQuote(reply);
    focusWriting(textarea.current, { preventScroll: true });
    textarea.current?.scrollIntoView({ block: 'center', behavior: smooth() });
  }, []);
  const askDelete = useCallback((reply: Reply) => setDeleting({ reply, open: true }), []);
  const confirmDelete = async () => {
    if (!deleting) return false;
    try {
      const { id } = deleting.reply;
      await deleteWithUndo(() => deleteReply(id), { deleted: 'Reply deleted', restored: 'Reply restored' });
      if (quote?.id === deleting.reply.id) setQuote(null);
      setDeleting((current) => current && { ...current, done: true });
      return true;
    } catch (error) {
      showToast(errorToast(error));
      return false;
    }
  };

  const open = post.status === 'approved';
  // One number everywhere (issue 40): the replies a member can read, as on the post's card; the
  // thread also lists hidden ones (a placeholder for members), said beside the count.
  const hidden = total === undefined ? 0 : Math.max(0, total - post.comments);
  return (
    <section className="app-thread" aria-labelledby="replies-title">
      <h2 id="replies-title" ref={heading} tabIndex={-1} className="app-thread-title">
        Replies<span className="app-thread-count"> ({formatCount(post.comments)})</span>
        {hidden > 0 && <span className="app-thread-hidden"> · {formatCount(hidden)} hidden</span>}
      </h2>
      {!thread ? (
        <PageLoading label="Loading replies..." />
      ) : thread.total === 0 ? (
        open && (
          <EmptyState icon={<IconMessages size={40} />} title="No replies yet.">
            Start the conversation.
          </EmptyState>
        )
      ) : (
        <>
          <ol ref={replyList} className="app-replies" aria-label="Replies">
            {thread.replies.map((reply) => [
              reply.id === firstUnread && (
                <li key="new-replies" role="separator" aria-label="New replies" className="app-new-replies">
                  <span aria-hidden="true">New replies</span>
                </li>
              ),
              <ReplyItem
                isNew={fresh.marked.has(reply.id)}
                unsent={thread.unsent.has(reply.id)}
                key={reply.id}
                reply={reply}
                post={post}
                viewer={viewer}
                quoted={reply.quoteId ? thread.quoted.get(reply.quoteId) : undefined}
                highlighted={highlighted === reply.id}
                onQuote={startQuote}
                onDelete={askDelete}
              />,
            ])}
          </ol>
          {thread.pages > 1 && (
            <ReplyPages
              page={thread.page}
              pages={thread.pages}
              onNavigate={() => heading.current?.scrollIntoView({ block: 'start', behavior: smooth() })}
            />
          )}
        </>
      )}
      {open ? (
        <ReplyBox
          // One box per post: what is typed and attached for one post never goes with a reply to another.
          key={post.id}
          postId={post.id}
          email={viewer.email}
          quote={quote}
          onRemoveQuote={(sent) => setQuote((current) => (sent && current?.id !== sent.id ? current : null))}
          onPosted={(reply) => goToReply(reply.id, false)}
          textarea={textarea}
        />
      ) : (
        <p className="app-thread-closed">{ERRORS.replies_closed.message}</p>
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete reply?"
          confirmLabel="Delete"
          show={deleting.open}
          onConfirm={confirmDelete}
          onHide={() => setDeleting((current) => current && { ...current, open: false })}
          onExited={() => {
            // The reply's Delete button went with it: focus goes to the thread's heading.
            if (deleting.done) heading.current?.focus({ preventScroll: true });
            setDeleting(null);
          }}
        >
          {deleting.reply.authorEmail === viewer.email
            ? 'Your reply will be removed for everyone.'
            : 'This reply will be removed for everyone.'}
        </ConfirmDialog>
      )}
    </section>
  );
}
