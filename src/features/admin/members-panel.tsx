import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { IconUsers, IconWifiOff } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { useAsyncValue } from '../../hooks/use-async-value';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useMode } from '../../hooks/use-mode';
import { useSyncStatus } from '../../hooks/use-sync-status';
import type { AdminMember } from '../../shared/protocol';
import { findMembers } from '../../sync/admin';
import { MemberCard } from './member-card';
import { LimitsPanel } from './limits-panel';

/** The wait after the last key before a search asks the server. */
const TYPING_MS = 250;

/**
 * The Members tab (connected mode): find a member by name or email, see their posts, replies and
 * flags, and Suspend, Silence or Delete spammer; the member limits below. The list is the server's
 * (a device holds no one's account): it is read again once what the admin did has synced.
 */
export function MembersPanel() {
  const id = useId();
  const mode = useMode();
  const sync = useSyncStatus();
  const [query, setQuery] = useState('');
  const settled = useDebouncedValue(query.trim(), TYPING_MS);
  // Read again after each sync (what this admin did, a suspension or a deletion, has reached the server).
  const round = sync.lastSyncAt ?? 0;
  const online = mode === 'connected' && sync.state !== 'offline';
  const answer = useAsyncValue<AdminMember[] | Error>(
    online ? () => findMembers(settled).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))) : undefined,
    { key: settled, refresh: round },
  );

  if (mode === undefined) return <PageLoading label="Loading members..." />;
  if (mode === 'local') {
    return (
      <EmptyState icon={<IconUsers size={40} />} title="No members to manage here">
        Members live on the forum’s server. This device is local-only: its accounts are this browser’s own.
      </EmptyState>
    );
  }
  const found = answer?.value;
  return (
    <>
      <Form.Group className="mb-3" controlId={`${id}-find`}>
        <Form.Label>Find a member</Form.Label>
        <Form.Control
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Name or email"
          autoComplete="off"
          maxLength={200}
          aria-describedby={`${id}-find-help`}
        />
        <Form.Text id={`${id}-find-help`}>Every member matching part of their name or email, newest first.</Form.Text>
      </Form.Group>
      {!online ? (
        <EmptyState icon={<IconWifiOff size={40} />} title="Finding members needs a connection">
          What you did to a member while offline is kept and sent once this device is online again.
        </EmptyState>
      ) : found === undefined ? (
        <PageLoading label="Finding members..." />
      ) : found instanceof Error ? (
        <div role="alert" className="alert alert-danger">
          {found.message}
        </div>
      ) : found.length === 0 ? (
        <EmptyState icon={<IconUsers size={40} />} title="No member matches">
          Try part of their name or of their email address.
        </EmptyState>
      ) : (
        <ul className="list-unstyled app-members" aria-label="Members found">
          {found.map((member) => (
            <li key={member.id}>
              <MemberCard member={member} refresh={round} />
            </li>
          ))}
        </ul>
      )}
      {online && <LimitsPanel />}
    </>
  );
}
