import { useLiveQuery } from 'dexie-react-hooks';
import { IconUsersGroup } from '@tabler/icons-react';
import { PageLoading } from '../../components/page-loading';
import { listOwnGroups } from '../../db/groups/groups';
import { useMode } from '../../hooks/use-mode';
import { DISPLAY_CHARS, clip } from '../../lib/format';

/**
 * Your groups (issue 61): the groups the member is in, as their server sent them (a member's device
 * holds only their own groups, never who else is in them). Local-only: groups need the server.
 */
export function YourGroups() {
  const mode = useMode();
  const groups = useLiveQuery(() => listOwnGroups(), []);
  return (
    <section className="card app-panel" aria-labelledby="your-groups-title">
      <div className="card-body">
        <h2 id="your-groups-title" className="app-sidebar-title">
          <IconUsersGroup aria-hidden="true" size={20} /> Your groups
        </h2>
        {mode === 'local' ? (
          <p className="text-body-secondary small mb-0">Groups need the forum’s server: this device is local-only.</p>
        ) : groups === undefined || mode === undefined ? (
          <PageLoading label="Loading your groups..." />
        ) : groups.length === 0 ? (
          <p className="text-body-secondary small mb-0">You are in no group yet. The forum’s admins add members to groups.</p>
        ) : (
          <ul className="list-unstyled mb-0" aria-label="Your groups">
            {groups.map((group) => (
              <li key={group.id} className="mb-2">
                <strong>{clip(group.name, DISPLAY_CHARS.title)}</strong>
                {group.description && <div className="small text-body-secondary">{group.description}</div>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
