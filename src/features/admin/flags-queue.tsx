import { IconFlag } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { targetKey } from '../../shared/moderation';
import { FlaggedItemCard } from './flagged-item-card';
import { useFlaggedItems } from './use-flags';

/** The Flags queue: posts and replies members flagged, the most flagged first. */
export function FlagsQueue() {
  const items = useFlaggedItems();
  if (!items) return <PageLoading label="Loading flags..." />;
  if (items.length === 0) {
    return (
      <EmptyState icon={<IconFlag size={40} />} title="No open flags">
        When members flag a post or a reply, it shows here.
      </EmptyState>
    );
  }
  return (
    <div className="app-post-list">
      {items.map((item) => (
        <FlaggedItemCard key={targetKey(item.target)} item={item} />
      ))}
    </div>
  );
}
