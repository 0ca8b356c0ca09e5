// Groups on this device (issue 61, item 1; connected mode): what the server sent (an admin: every
// group and its members; a member: the groups they are in), read live by the Groups tab and the
// Profile's "Your groups", and the Groups tab's operations. Each operation is queued like any other
// and applied by the server, which alone holds groups: its next pull brings the change back here.
import { db, type GroupMemberRow, type GroupRow } from '../storage/schema';
import { newOperationId } from '../ops/uuid';
import { runOperation } from '../ops/run-later';

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });

/** Every group this device holds, by name. */
export async function listGroups(): Promise<GroupRow[]> {
  return (await db.groups.toArray()).sort(byName);
}

/** The groups the signed-in member is in, by name. */
export async function listOwnGroups(): Promise<GroupRow[]> {
  return (await db.groups.filter((group) => group.member === 1).toArray()).sort(byName);
}

/** The members of a group (an admin's device), by name. */
export async function listGroupMembers(groupId: string): Promise<GroupMemberRow[]> {
  return (await db.groupMembers.where('groupId').equals(groupId).toArray()).sort(byName);
}

/** Creates a group (its id made here); returns the id. */
export async function createGroup(name: string, description: string): Promise<string> {
  const groupId = newOperationId();
  await runOperation('createGroup', { groupId, name, description });
  return groupId;
}

/** Changes a group's name and description. */
export async function editGroup(groupId: string, name: string, description: string): Promise<void> {
  await runOperation('editGroup', { groupId, name, description });
}

/** Puts the member of public id `memberId` in the group. */
export async function addGroupMember(groupId: string, memberId: string): Promise<void> {
  await runOperation('addGroupMember', { groupId, memberId });
}

/** Takes the member of public id `memberId` out of the group. */
export async function removeGroupMember(groupId: string, memberId: string): Promise<void> {
  await runOperation('removeGroupMember', { groupId, memberId });
}
