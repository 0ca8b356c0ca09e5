import { useEffect, useRef } from 'react';
import { IconFlag } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { FirstSyncPlaceholder } from '../../components/first-sync-placeholder';
import { useFirstSync } from '../../hooks/use-first-sync';
import { targetKey } from '../../shared/moderation';
import { FlaggedItemCard } from './flagged-item-card';
import { useFlaggedItems } from './use-flags';

/** The Flags queue: posts and replies members flagged, the most flagged first. */
export function FlagsQueue() {
  const items = useFlaggedItems();
  const firstSync = useFirstSync();
  const list = useRef<HTMLDivElement>(null);
  // The place of the card last acted on: when it leaves the queue (dismissed, hidden, deleted), the
  // focus moves to the card now in its place (or the last one), or to the panel's heading, never to the page.
  const acted = useRef<number | null>(null);
  useEffect(() => {
    const index = acted.current;
    if (index === null || !items) return;
    const active = document.activeElement;
    if (active && active !== document.body && list.current?.contains(active)) return;
    acted.current = null;
    const cards = list.current?.querySelectorAll('article') ?? [];
    const next = cards[Math.min(index, cards.length - 1)]?.querySelector<HTMLElement>('.card-footer button');
    if (next) next.focus();
    else document.getElementById('flags-title')?.focus();
  }, [items]);
  if (!items) return <PageLoading label="Loading flags..." />;
  // Before a connected device's first sync has finished, no flags here does not yet mean none open.
  if (items.length === 0 && firstSync !== 'done')
    return <FirstSyncPlaceholder firstSync={firstSync} loading="Loading flags..." what="Flags" />;
  if (items.length === 0) {
    return (
      <EmptyState icon={<IconFlag size={40} />} title="No open flags">
        When members flag a post or a reply, it shows here.
      </EmptyState>
    );
  }
  return (
    <div className="app-post-list" ref={list}>
      {items.map((item, index) => (
        <FlaggedItemCard key={targetKey(item.target)} item={item} onActing={() => (acted.current = index)} />
      ))}
    </div>
  );
}
