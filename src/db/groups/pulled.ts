// The groups and categories a pull brings (protocol 7, connected mode; issue 61): to an admin's device every group
// and every group's members, to a member's the groups they are in. A group the member was taken out
// of comes once more, `gone`, and leaves the device. Runs inside the caller's readwrite transaction
// (OP_TABLES holds groups and groupMembers).
import { db, type CategoryRow, type GroupRow } from '../storage/schema';
import type { WireCategory, WireGroup, WireGroupMember } from '../../shared/protocol';

/** Stores the groups of a page (newer than what is held); returns how many rows changed. */
export async function storeServerGroups(groups: readonly WireGroup[]): Promise<number> {
  let changed = 0;
  for (const group of groups) {
    const held = await db.groups.get(group.id);
    if (held && held.seq > group.seq) continue;
    if (group.gone) {
      if (held) {
        await db.groups.delete(group.id);
        changed += 1;
      }
      continue;
    }
    const row: GroupRow = {
      id: group.id,
      name: group.name,
      description: group.description,
      createdAt: group.createdAt,
      updatedAt: group.updatedAt,
      member: group.member ? 1 : 0,
      seq: group.seq,
    };
    await db.groups.put(row);
    changed += 1;
  }
  return changed;
}

/** Stores the groups' members of a page (an admin's device): a member taken out leaves the list. */
export async function storeServerGroupMembers(members: readonly WireGroupMember[]): Promise<number> {
  let changed = 0;
  for (const member of members) {
    const key: [string, string] = [member.groupId, member.memberId];
    const held = await db.groupMembers.get(key);
    if (held && held.seq > member.seq) continue;
    if (member.member)
      await db.groupMembers.put({ groupId: member.groupId, memberId: member.memberId, name: member.name, seq: member.seq });
    else if (held) await db.groupMembers.delete(key);
    else continue;
    changed += 1;
  }
  return changed;
}

/**
 * Stores the categories of a page (newer than what is held): one the member may no longer see stays
 * as a hidden row (a default's id must not come back from the built-in six), its name blank. The ids
 * stored hidden are added to `hidden`: their posts leave the device in the same transaction (revoked.ts).
 */
export async function storeServerCategories(categories: readonly WireCategory[], hidden: string[] = []): Promise<number> {
  let changed = 0;
  for (const category of categories) {
    const held = await db.categories.get(category.id);
    if (held && held.seq > category.seq) continue;
    const { gone, ...fields } = category;
    const row: CategoryRow = { ...fields, hidden: gone ? 1 : 0 };
    await db.categories.put(row);
    if (gone) hidden.push(category.id);
    changed += 1;
  }
  return changed;
}
