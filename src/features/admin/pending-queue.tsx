import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { IconChecks } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { LoadMore } from '../../components/load-more';
import { PageLoading } from '../../components/page-loading';
import { FirstSyncPlaceholder } from '../../components/first-sync-placeholder';
import { useFirstSync } from '../../hooks/use-first-sync';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { approvePost, rejectPost } from '../../db/posts/posts';
import { reviewPosts, undoReview } from '../../db/moderation/review';
import { plural } from '../../lib/format';
import { reviewCommandOf } from '../../lib/review-keys';
import { BulkToolbar } from './bulk-toolbar';
import { bulkReviewToast } from './bulk-toast';
import { PendingPost, type Decision } from './pending-post';
import { ShortcutsDialog } from './shortcuts-dialog';
import { usePendingPosts } from './use-pending-posts';

const smooth = (): ScrollBehavior => (matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');

/**
 * The review queue: each post with Reason, Select, Approve and Reject; the bulk buttons above it;
 * the keys j / k / a / r / x / ? while `keys` is on (its tab is shown). Empty means all caught up.
 */
export function PendingQueue({ keys = true }: { keys?: boolean }) {
  const { items, hasMore, loadingMore, loadMore } = usePendingPosts();
  const firstSync = useFirstSync();
  const showToast = useToast();
  const list = useRef<HTMLDivElement>(null);
  const selectAll = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState<Record<number, Decision>>({});
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [bulkBusy, setBulkBusy] = useState<Decision | null>(null);
  const [help, setHelp] = useState(false);
  // The reasons as typed, for decide (which must not change on every keystroke).
  const reasonsRef = useRef<Record<number, string>>({});
  // Where the reviewed card was, so focus can move on to the next one when it leaves the queue.
  const reviewedAt = useRef<number | null>(null);
  const afterBulk = useRef(false);

  const cards = () => [...(list.current?.querySelectorAll<HTMLElement>('article[data-post-id]') ?? [])];

  const decide = useCallback(
    async (postId: number, decision: Decision) => {
      reviewedAt.current = cards().findIndex((card) => card.dataset.postId === String(postId));
      setBusy((current) => ({ ...current, [postId]: decision }));
      const reason = reasonsRef.current[postId]?.trim();
      try {
        await (decision === 'approve' ? approvePost(postId) : rejectPost(postId, reason || undefined));
        showToast(
          decision === 'approve'
            ? { title: 'Post approved', description: 'The post has been successfully approved.' }
            : { title: 'Post rejected', description: 'The post has been successfully rejected.' },
        );
      } catch (error) {
        reviewedAt.current = null;
        showToast(errorToast(error));
      } finally {
        setBusy(({ [postId]: _, ...rest }) => rest);
      }
    },
    [showToast],
  );
  const onDecide = useCallback((postId: number, decision: Decision) => void decide(postId, decision), [decide]);
  const onSelect = useCallback((postId: number, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(postId);
      else next.delete(postId);
      return next;
    });
  }, []);
  const onReason = useCallback((postId: number, reason: string) => {
    reasonsRef.current = { ...reasonsRef.current, [postId]: reason };
    setReasons(reasonsRef.current);
  }, []);

  // Only what is still in the queue counts as selected (another tab may have reviewed some).
  const shownSelected = useMemo(() => (items ?? []).filter((post) => selected.has(post.id)).map((post) => post.id), [items, selected]);

  const bulkReview = async (decision: Decision) => {
    const ids = shownSelected;
    if (ids.length === 0) return;
    setBulkBusy(decision);
    try {
      // Each post's Reason as typed on its card goes with Reject selected, as with its own Reject.
      const result = await reviewPosts(ids, decision === 'approve' ? 'approved' : 'rejected', reasonsRef.current);
      setSelected(new Set());
      afterBulk.current = true;
      const token = result.undo;
      const count = result.reviewed.length;
      showToast({
        ...bulkReviewToast(result, decision),
        action: token
          ? {
              label: 'Undo',
              onClick: () => {
                undoReview(token).then(
                  () => showToast({ title: 'Review undone', description: `${plural(count, 'post')} back in the queue.` }),
                  (error: unknown) => showToast(errorToast(error)),
                );
              },
            }
          : undefined,
      });
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBulkBusy(null);
    }
  };

  useEffect(() => {
    if (!items) return;
    if (afterBulk.current) {
      afterBulk.current = false;
      (items.length > 0 ? selectAll.current : document.getElementById('main'))?.focus();
      return;
    }
    const at = reviewedAt.current;
    if (at === null || at < 0) return;
    reviewedAt.current = null;
    const all = cards();
    const next = all[Math.min(at, all.length - 1)]?.querySelector('.app-review-actions button');
    (next instanceof HTMLElement ? next : document.getElementById('main'))?.focus();
  }, [items]);

  // The keys of REVIEW_SHORTCUTS, anywhere on the page but in a field or a dialog.
  useEffect(() => {
    if (!keys) return undefined;
    const onKey = (event: KeyboardEvent) => {
      const command = reviewCommandOf({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        defaultPrevented: event.defaultPrevented,
        repeat: event.repeat,
        target: event.target instanceof HTMLElement ? event.target : null,
      });
      // Not behind a dialog, nor behind the phone's open menu.
      if (!command || document.querySelector('.modal.show, .offcanvas.show, .navbar-collapse.show')) return;
      event.preventDefault();
      if (command === 'help') {
        setHelp(true);
        return;
      }
      const all = cards();
      if (all.length === 0) return;
      const at = all.findIndex((card) => card.contains(document.activeElement));
      if (command === 'next' || command === 'previous') {
        const to = at < 0 ? 0 : Math.max(0, Math.min(all.length - 1, at + (command === 'next' ? 1 : -1)));
        all[to]!.focus({ preventScroll: true });
        all[to]!.scrollIntoView({ block: 'nearest', behavior: smooth() });
        return;
      }
      if (at < 0) return;
      const postId = Number(all[at]!.dataset.postId);
      if (command === 'select') onSelect(postId, !selected.has(postId));
      else if (!busy[postId]) void decide(postId, command === 'approve' ? 'approve' : 'reject');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [keys, decide, onSelect, selected, busy]);

  const dialog = <ShortcutsDialog show={help} onHide={() => setHelp(false)} />;
  if (!items) return <PageLoading label="Loading pending posts..." />;
  // Before a connected device's first sync has finished, an empty queue is not yet "all caught up".
  if (items.length === 0 && firstSync !== 'done')
    return (
      <>
        <FirstSyncPlaceholder firstSync={firstSync} loading="Loading pending posts..." what="Pending posts" />
        {dialog}
      </>
    );
  if (items.length === 0) {
    return (
      <>
        <EmptyState icon={<IconChecks size={40} />} title="All caught up!">
          There are no pending posts to review.
        </EmptyState>
        {dialog}
      </>
    );
  }
  return (
    <>
      <BulkToolbar
        selected={shownSelected.length}
        shown={items.length}
        busy={bulkBusy}
        onSelectAll={() => setSelected(new Set(items.map((post) => post.id)))}
        onClear={() => setSelected(new Set())}
        onReview={(decision) => void bulkReview(decision)}
        onHelp={() => setHelp(true)}
        selectAllRef={selectAll}
      />
      <div className="app-post-list" ref={list}>
        {items.map((post) => (
          <PendingPost
            key={post.id}
            post={post}
            busy={busy[post.id] ?? null}
            selected={selected.has(post.id)}
            reason={reasons[post.id] ?? ''}
            onDecide={onDecide}
            onSelect={onSelect}
            onReason={onReason}
          />
        ))}
      </div>
      {hasMore && <LoadMore onLoadMore={loadMore} loading={loadingMore} label="Load more pending posts" />}
      {dialog}
    </>
  );
}
