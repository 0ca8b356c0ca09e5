// The Groups tab's operations (admins only, protocol 7; issue 61, item 1): create a group (its id
// made on the admin's device), change its name and description, add a member to it and take one out.
// Only the server holds every group and membership: a device records none of them (its rows come
// with the next pull, the server's word), and sends each whatever it holds. Each is in the staff log.
import { GROUP_NAME_TAKEN, GROUP_NOT_FOUND, validateGroupDescription, validateGroupName } from '../groups';
import { check, defineOp, OpRefusal, refuse, refuseInput } from './define';
import { textOf } from './fields';
import type { OpStore } from './store';

/** A group's name and description as sent (validateGroupName, validateGroupDescription), trimmed. */
function groupFields(name: unknown, description: unknown): { name: string; description: string } {
  const givenName = textOf(name);
  const givenDescription = description === undefined || description === null ? '' : textOf(description);
  check(validateGroupName(givenName));
  check(validateGroupDescription(givenDescription));
  return { name: givenName.trim(), description: givenDescription.trim() };
}

/** The group of `id` (else refused: no such group); undefined on a device, which holds none of its own. */
async function existingGroup(store: OpStore, id: string) {
  const group = await store.group(id);
  if (group === 'unknown') return undefined;
  if (!group) throw new OpRefusal('not_found', GROUP_NOT_FOUND.message, GROUP_NOT_FOUND.title);
  return group;
}

/** Refuses a name another group than `except` holds (the server's word). */
async function freeName(store: OpStore, name: string, except: string | null): Promise<void> {
  if (await store.groupNameTaken(name, except)) refuseInput({ code: 'invalid', ...GROUP_NAME_TAKEN });
}

export const createGroup = defineOp('createGroup', 7, 'admin', {
  staff: { when: 'always', verb: () => 'created the group' },
  wire: (z, f) => ({ groupId: f.uuid, name: z.unknown(), description: z.unknown().optional() }),
  parse: (op) => ({ groupId: op.groupId, ...groupFields(op.name, op.description) }),
  sendUnchanged: true,
  async run(store, _actor, { groupId, name, description }, context) {
    const before = await store.group(groupId);
    if (before !== undefined && before !== 'unknown') {
      refuseInput({ code: 'invalid', title: 'Group exists', message: 'A group with this id exists already.' });
    }
    await freeName(store, name, null);
    await store.saveGroup({ id: groupId, name, description, createdAt: context.now, updatedAt: context.now });
  },
});

export const editGroup = defineOp('editGroup', 7, 'admin', {
  staff: { when: 'always', verb: () => 'edited the group' },
  wire: (z, f) => ({ groupId: f.uuid, name: z.unknown(), description: z.unknown().optional() }),
  parse: (op) => ({ groupId: op.groupId, ...groupFields(op.name, op.description) }),
  sendUnchanged: true,
  async run(store, _actor, { groupId, name, description }, context) {
    const group = await existingGroup(store, groupId);
    await freeName(store, name, groupId);
    await store.saveGroup({ id: groupId, name, description, createdAt: group?.createdAt ?? context.now, updatedAt: context.now });
  },
});

/** The member an admin puts in a group or takes out: anyone with an open account (a device acts on trust). */
async function groupMember(store: OpStore, memberId: string): Promise<void> {
  const target = await store.memberToModerate(memberId);
  if (target === 'unknown') return;
  if (!target || target.closed) refuse('member_not_found');
}

export const addGroupMember = defineOp('addGroupMember', 7, 'admin', {
  staff: { when: 'always', verb: () => 'added a member to the group' },
  wire: (_z, f) => ({ groupId: f.uuid, memberId: f.memberId }),
  parse: (op) => ({ groupId: op.groupId, memberId: op.memberId }),
  sendUnchanged: true,
  async run(store, _actor, { groupId, memberId }) {
    await existingGroup(store, groupId);
    await groupMember(store, memberId);
    await store.setGroupMember(groupId, memberId, true);
  },
});

export const removeGroupMember = defineOp('removeGroupMember', 7, 'admin', {
  staff: { when: 'always', verb: () => 'removed a member from the group' },
  wire: (_z, f) => ({ groupId: f.uuid, memberId: f.memberId }),
  parse: (op) => ({ groupId: op.groupId, memberId: op.memberId }),
  sendUnchanged: true,
  async run(store, _actor, { groupId, memberId }) {
    await existingGroup(store, groupId);
    await groupMember(store, memberId);
    await store.setGroupMember(groupId, memberId, false);
  },
});
