import { useId, useRef, useState, type FormEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { IconUsersGroup, IconWifiOff } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { PageLoading } from '../../components/page-loading';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { trapTabKey } from '../../components/focus-trap';
import { addGroupMember, createGroup, editGroup, listGroupMembers, listGroups, removeGroupMember } from '../../db/groups/groups';
import type { GroupMemberRow, GroupRow } from '../../db/storage/schema';
import { useAsyncValue } from '../../hooks/use-async-value';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useMode } from '../../hooks/use-mode';
import { useSyncStatus } from '../../hooks/use-sync-status';
import { DISPLAY_CHARS, clip, plural } from '../../lib/format';
import { GROUP_LIMITS, validateGroupDescription, validateGroupName } from '../../shared/groups';
import type { AdminMember } from '../../shared/protocol';
import { findMembers } from '../../sync/admin';

/** The wait after the last key before a search asks the server. */
const TYPING_MS = 250;

/** The dialog of New group and Edit: "Group name" and "Description", checked here by the rules the server applies. */
function GroupDialog({ group, show, onHide }: { group?: GroupRow; show: boolean; onHide: () => void }) {
  const id = useId();
  const showToast = useToast();
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [busy, setBusy] = useState(false);
  const title = group ? 'Edit group' : 'New group';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateGroupName(name) ?? validateGroupDescription(description);
    if (problem) {
      showToast({ title: problem.title, description: problem.message, variant: 'error' });
      return;
    }
    setBusy(true);
    try {
      if (group) await editGroup(group.id, name, description);
      else await createGroup(name, description);
      showToast({
        title: group ? 'Group saved' : 'Group created',
        description: 'It shows here once the server has it.',
        variant: 'success',
      });
      onHide();
    } catch (error) {
      showToast(errorToast(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby={`${id}-title`} onKeyDown={trapTabKey}>
      <Form onSubmit={(event) => void submit(event)} noValidate>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-3" controlId={`${id}-name`}>
            <Form.Label>Group name</Form.Label>
            <Form.Control value={name} onChange={(event) => setName(event.target.value)} maxLength={GROUP_LIMITS.name} required />
          </Form.Group>
          <Form.Group controlId={`${id}-description`}>
            <Form.Label>Description</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              maxLength={GROUP_LIMITS.description}
            />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {group ? 'Save' : 'Create group'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** "Add member": a field "Find a member" (name or email, the server's answer) and an Add button per member found. */
function AddMember({ group, members, online }: { group: GroupRow; members: readonly GroupMemberRow[]; online: boolean }) {
  const id = useId();
  const showToast = useToast();
  const [query, setQuery] = useState('');
  const settled = useDebouncedValue(query.trim(), TYPING_MS);
  const answer = useAsyncValue<AdminMember[] | Error>(
    online && settled !== ''
      ? () => findMembers(settled).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
      : undefined,
    { key: settled },
  );
  const inGroup = new Set(members.map((member) => member.memberId));
  const findField = useRef<HTMLInputElement>(null);
  const found = answer?.value;
  const add = async (member: AdminMember) => {
    try {
      await addGroupMember(group.id, member.id);
      // Its Add button becomes "In the group": the focus goes back to the search, for the next one.
      findField.current?.focus();
      showToast({
        title: 'Member added',
        description: `${clip(member.name, DISPLAY_CHARS.author)} joins ${group.name}.`,
        variant: 'success',
      });
    } catch (error) {
      showToast(errorToast(error));
    }
  };
  return (
    <div className="mt-2">
      <Form.Group controlId={`${id}-find`}>
        <Form.Label>Find a member</Form.Label>
        <Form.Control
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Name or email"
          autoComplete="off"
          maxLength={200}
          ref={findField}
          autoFocus
        />
      </Form.Group>
      {!online ? (
        <p className="small text-body-secondary mt-2 mb-0">Finding members needs a connection.</p>
      ) : settled === '' ? null : found === undefined ? (
        <PageLoading label="Finding members..." />
      ) : found instanceof Error ? (
        <p role="alert" className="text-danger small mt-2 mb-0">
          {found.message}
        </p>
      ) : found.filter((member) => !member.closed).length === 0 ? (
        <p className="small text-body-secondary mt-2 mb-0">No member matches.</p>
      ) : (
        <ul className="list-unstyled mt-2 mb-0" aria-label={`Members found for ${group.name}`}>
          {found
            .filter((member) => !member.closed)
            .map((member) => (
              <li key={member.id} className="d-flex align-items-center gap-2 mb-1">
                <span className="flex-grow-1 text-truncate">
                  {clip(member.name, DISPLAY_CHARS.author)} <span className="text-body-secondary small">{member.email}</span>
                </span>
                {inGroup.has(member.id) ? (
                  <span className="small text-body-secondary">In the group</span>
                ) : (
                  <Button size="sm" variant="outline-primary" onClick={() => void add(member)} aria-label={`Add ${member.name}`}>
                    Add
                  </Button>
                )}
              </li>
            ))}
        </ul>
      )}
    </div>
  );
}

/** One group: its name, description and members (Remove each), Edit and Add member. */
function GroupCard({ group, online }: { group: GroupRow; online: boolean }) {
  const id = useId();
  const showToast = useToast();
  const members = useLiveQuery(() => listGroupMembers(group.id), [group.id]) ?? [];
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const remove = async (member: GroupMemberRow) => {
    try {
      await removeGroupMember(group.id, member.memberId);
      // Its row (and the Remove pressed) leaves the list: the focus stays in this group's card.
      addButton.current?.focus();
      showToast({
        title: 'Member removed',
        description: `${clip(member.name, DISPLAY_CHARS.author)} leaves ${group.name}.`,
        variant: 'success',
      });
    } catch (error) {
      showToast(errorToast(error));
    }
  };
  return (
    <article className="card mb-3" aria-labelledby={`${id}-name`}>
      <div className="card-body">
        <div className="d-flex align-items-start gap-2">
          <div className="flex-grow-1">
            <h3 id={`${id}-name`} className="h5 mb-1">
              {clip(group.name, DISPLAY_CHARS.title)}
            </h3>
            {group.description && <p className="mb-1 text-body-secondary app-group-description">{group.description}</p>}
            <p className="small text-body-secondary mb-2">{plural(members.length, 'member')}</p>
          </div>
          <Button size="sm" variant="outline-secondary" onClick={() => setEditing(true)} aria-label={`Edit ${group.name}`}>
            Edit
          </Button>
        </div>
        {members.length > 0 && (
          <ul className="list-unstyled mb-2" aria-label={`Members of ${group.name}`}>
            {members.map((member) => (
              <li key={member.memberId} className="d-flex align-items-center gap-2 mb-1">
                <span className="flex-grow-1 text-truncate">{clip(member.name, DISPLAY_CHARS.author)}</span>
                <Button
                  size="sm"
                  variant="outline-danger"
                  onClick={() => void remove(member)}
                  aria-label={`Remove ${member.name} from ${group.name}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <Button
          ref={addButton}
          size="sm"
          variant="outline-primary"
          onClick={() => setAdding((open) => !open)}
          aria-expanded={adding}
          aria-label={`Add member to ${group.name}`}
        >
          Add member
        </Button>
        {adding && <AddMember group={group} members={members} online={online} />}
      </div>
      {editing && <GroupDialog group={group} show={editing} onHide={() => setEditing(false)} />}
    </article>
  );
}

/**
 * The Groups tab (connected mode; issue 61): New group, and each group with its members (Add member,
 * Remove). The groups are this device's copy of the server's (every group, on an admin's device): a
 * change shows once the server has applied it and the device has pulled it.
 */
export function GroupsPanel() {
  const mode = useMode();
  const sync = useSyncStatus();
  const groups = useLiveQuery(() => listGroups(), []);
  const [creating, setCreating] = useState(false);
  if (mode === undefined) return <PageLoading label="Loading groups..." />;
  if (mode === 'local') {
    return (
      <EmptyState icon={<IconUsersGroup size={40} />} title="Groups and categories need the server">
        Groups live on the forum’s server. This device is local-only: its forum keeps the six categories everyone sees.
      </EmptyState>
    );
  }
  const online = sync.state !== 'offline';
  return (
    <>
      <div className="d-flex align-items-center gap-2 mb-3">
        <p className="text-body-secondary mb-0 flex-grow-1">Gather members into groups, then choose which categories each group sees.</p>
        <Button variant="primary" onClick={() => setCreating(true)}>
          New group
        </Button>
      </div>
      {!online && (
        <p className="small text-body-secondary d-flex align-items-center gap-1">
          <IconWifiOff size={16} aria-hidden="true" /> Offline: what you change is kept and sent once this device is online again.
        </p>
      )}
      {groups === undefined ? (
        <PageLoading label="Loading groups..." />
      ) : groups.length === 0 ? (
        <EmptyState icon={<IconUsersGroup size={40} />} title="No groups yet">
          Create a group, then add members to it.
        </EmptyState>
      ) : (
        groups.map((group) => <GroupCard key={group.id} group={group} online={online} />)
      )}
      {creating && <GroupDialog show={creating} onHide={() => setCreating(false)} />}
    </>
  );
}
