// Groups and categories on this device (issue 61, items 1 and 2; connected mode): what the server sent (an admin: every
// group and its members; a member: the groups they are in), read live by the Groups tab and the
// Profile's "Your groups", and the Groups tab's operations. Each operation is queued like any other
// and applied by the server, which alone holds groups: its next pull brings the change back here.
import { db, type GroupMemberRow, type GroupRow } from '../storage/schema';
import { newOperationId } from '../ops/uuid';
import { runOperation } from '../ops/run-later';
import { mayPostIn, withDefaults, type Category } from '../../shared/categories';
import { readStoredSession } from '../members/session';

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

/** The categories this device knows (the six built in, under what the server sent), hidden ones left out, in their order. */
export async function listCategories(): Promise<Category[]> {
  const held = await db.categories.toArray();
  const hidden = new Set(held.filter((row) => row.hidden === 1).map((row) => row.id));
  const shown = held.filter((row) => row.hidden === 0).map(({ hidden: _hidden, seq: _seq, ...category }) => category);
  return withDefaults(shown).filter((category) => !hidden.has(category.id));
}

/**
 * The categories the signed-in member may post in, in their order (the New Post list): seen, not
 * archived, and their groups among who posts. `keep`: a category to list whatever it is (the one
 * an edited post is in).
 */
export async function listPostableCategories(keep?: string): Promise<Category[]> {
  const viewer = { role: readStoredSession()?.role ?? 'user', groups: await ownGroupIds() };
  return (await listCategories()).filter((category) => category.id === keep || mayPostIn(category, viewer));
}

/** True when this device knows a category of this id that its member may see (the six, or one its server sent). */
export async function isKnownCategory(id: string): Promise<boolean> {
  return (await listCategories()).some((category) => category.id === id);
}

/** The ids of the groups the signed-in member is in (what a category's `see` and `post` are checked against). */
export async function ownGroupIds(): Promise<string[]> {
  return (await db.groups.filter((group) => group.member === 1).toArray()).map((group) => group.id);
}

/** Who sees or posts: null (everyone) or group ids. */
export type CategoryAudience = string[] | null;

/** Creates a category at the end of the lists (its id made here); returns the id. */
export async function createCategory(
  fields: { name: string; description: string; see: CategoryAudience; post: CategoryAudience },
  position: number,
): Promise<string> {
  const categoryId = newOperationId();
  await runOperation('createCategory', { categoryId, position, ...fields });
  return categoryId;
}

/** Changes a category's name, description and who sees and posts in it. */
export async function editCategory(
  categoryId: string,
  fields: { name: string; description: string; see: CategoryAudience; post: CategoryAudience },
): Promise<void> {
  await runOperation('editCategory', { categoryId, ...fields });
}

/** Moves a category to `position` in the lists. */
export async function moveCategory(categoryId: string, position: number): Promise<void> {
  await runOperation('moveCategory', { categoryId, position });
}

/** Archives a category (no new posts; its posts stay readable), or brings it back. */
export async function archiveCategory(categoryId: string, archived: boolean): Promise<void> {
  await runOperation('archiveCategory', { categoryId, archived });
}
