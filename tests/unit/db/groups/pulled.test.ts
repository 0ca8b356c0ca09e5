// Groups on the device (issue 61): a pull stores the groups and (an admin's device) their members,
// newer change numbers winning; a group the member was taken out of leaves; another member signing
// in on the device finds none of them.
import { describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { applyPullPage } from '../../../../src/db/sync/apply-pull';
import { switchMember } from '../../../../src/db/sync/member-switch';
import { listGroupMembers, listGroups, listOwnGroups } from '../../../../src/db/groups/groups';
import type { WireGroup } from '../../../../src/shared/protocol';
import { pullPage } from '../../sync/fixtures';

const OWNER = 'alice@example.com';
const group = (id: string, name: string, seq: number, rest: Partial<WireGroup> = {}): WireGroup => ({
  id,
  name,
  description: '',
  createdAt: 1,
  updatedAt: 1,
  member: true,
  gone: false,
  seq,
  ...rest,
});

describe('pulled groups', () => {
  it('stores groups and members, keeps the newer of two, and drops a group the member left', async () => {
    await applyPullPage(
      pullPage({
        groups: [group('g1', 'Panel vendors', 1), group('g2', 'Client team', 2, { member: false })],
        groupMembers: [{ groupId: 'g1', memberId: 'a1a1a1a1a1a1a1a1', name: 'Alice', member: true, seq: 1 }],
        cursor: 2,
      }),
      OWNER,
    );
    expect((await listGroups()).map((row) => row.name)).toEqual(['Client team', 'Panel vendors']);
    expect((await listOwnGroups()).map((row) => row.name)).toEqual(['Panel vendors']);
    expect((await listGroupMembers('g1')).map((row) => row.name)).toEqual(['Alice']);
    // An older word on a group changes nothing; a member taken out leaves the list.
    await applyPullPage(
      pullPage({
        groups: [group('g1', 'Old name', 0)],
        groupMembers: [{ groupId: 'g1', memberId: 'a1a1a1a1a1a1a1a1', name: 'Alice', member: false, seq: 3 }],
        cursor: 3,
      }),
      OWNER,
    );
    expect((await db.groups.get('g1'))?.name).toBe('Panel vendors');
    expect(await listGroupMembers('g1')).toEqual([]);
    await applyPullPage(pullPage({ groups: [group('g1', '', 4, { member: false, gone: true })], cursor: 4 }), OWNER);
    expect((await listGroups()).map((row) => row.name)).toEqual(['Client team']);
  });

  it('leaves nothing of another member’s groups when someone else signs in on the device', async () => {
    await applyPullPage(
      pullPage({
        groups: [group('g1', 'Panel vendors', 1)],
        groupMembers: [{ groupId: 'g1', memberId: 'b0b0b0b0b0b0b0b0', name: 'Bob', member: true, seq: 1 }],
      }),
      OWNER,
    );
    expect(await db.groups.count()).toBe(1);
    await switchMember({ email: 'bob@example.com', name: 'Bob', role: 'user' });
    expect(await db.groups.count()).toBe(0);
    expect(await db.groupMembers.count()).toBe(0);
  });
});
