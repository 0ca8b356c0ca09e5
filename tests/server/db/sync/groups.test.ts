// Groups on the server (issue 61, item 1), on PGlite and PostgreSQL: what only the server can refuse
// (a taken name, a group or member nobody has), what each viewer's pull carries (an admin: every group
// and its members; a member: only the groups they are in, never who else is in them; once more, blank,
// the group they were taken out of), and the staff log's words. The cases every store shares are in
// tests/ops/*Group*.cases.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { applyOp } from '../../../../server/db/ops/apply';
import { createUser, findUser, type UserRow } from '../../../../server/db/members/accounts';
import { pullChanges } from '../../../../server/db/sync/changes';
import { readStaffLog } from '../../../../server/db/staff/staff-log';
import type { Database } from '../../../../server/db/storage/adapter';
import { PROTOCOL_VERSION, type Op, type PullResponse } from '../../../../src/shared/protocol';
import { staffVerbOf } from '../../../../src/shared/staff-actions';
import { ADMIN_EMAIL, BACKENDS, freshDatabase } from '../../support/databases';

describe.each(BACKENDS)('groups (%s)', (backend) => {
  let db: Database;
  let admin: UserRow;
  let alice: UserRow;
  let bob: UserRow;
  let carol: UserRow;

  beforeAll(async () => {
    db = await freshDatabase(backend);
    admin = (await findUser(db, ADMIN_EMAIL))!;
    const member = async (name: string) =>
      (await createUser(db, { email: `${name.toLowerCase()}@example.com`, name, role: 'user', passwordHash: 'x' }))!;
    alice = await member('Alice');
    bob = await member('Bob');
    carol = await member('Carol');
  });
  afterAll(async () => {
    await db?.close();
  });

  const send = async (user: UserRow, op: Record<string, unknown>) =>
    (await applyOp(db, user, { id: randomUUID(), ...op } as Op, PROTOCOL_VERSION)).result;
  const pull = async (user: UserRow, after = 0) => (await pullChanges(db, user, after, 1000, PROTOCOL_VERSION)) as PullResponse;

  const vendors = randomUUID();
  const clients = randomUUID();

  it('refuses what only the server can know: a taken name (by its key), a group or member nobody has', async () => {
    expect(await send(admin, { type: 'createGroup', groupId: vendors, name: 'Panel vendors' })).toMatchObject({ status: 'applied' });
    for (const name of ['PANEL VENDORS', 'Panel  vendors!', 'P\u0430nel vendors', 'Ｐａｎｅｌ vendors']) {
      expect(await send(admin, { type: 'createGroup', groupId: randomUUID(), name }), name).toMatchObject({
        status: 'refused',
        code: 'invalid',
        reason: 'Another group already has this name. Choose another one.',
      });
    }
    expect(await send(admin, { type: 'createGroup', groupId: vendors, name: 'Another' })).toMatchObject({
      status: 'refused',
      code: 'invalid',
    });
    expect(await send(admin, { type: 'createGroup', groupId: clients, name: 'Client team' })).toMatchObject({ status: 'applied' });
    expect(await send(admin, { type: 'editGroup', groupId: clients, name: 'panel vendors' })).toMatchObject({
      status: 'refused',
      code: 'invalid',
    });
    // Its own name, written otherwise, is its own.
    expect(await send(admin, { type: 'editGroup', groupId: vendors, name: 'Panel Vendors' })).toMatchObject({ status: 'applied' });
    const nobody = randomUUID();
    expect(await send(admin, { type: 'editGroup', groupId: nobody, name: 'Ghosts' })).toMatchObject({
      status: 'refused',
      code: 'not_found',
      reason: 'This group no longer exists.',
    });
    expect(await send(admin, { type: 'addGroupMember', groupId: nobody, memberId: alice.memberId })).toMatchObject({ code: 'not_found' });
    expect(await send(admin, { type: 'addGroupMember', groupId: vendors, memberId: '0123456789abcdef' })).toMatchObject({
      code: 'member_not_found',
    });
    expect(await send(alice, { type: 'addGroupMember', groupId: vendors, memberId: alice.memberId })).toMatchObject({
      code: 'admins_only',
    });
  });

  it('pulls every group and its members to admins, and to a member only their own groups, never who else is in them', async () => {
    for (const [groupId, user] of [
      [vendors, alice],
      [vendors, bob],
      [clients, carol],
    ] as const) {
      expect(await send(admin, { type: 'addGroupMember', groupId, memberId: user.memberId })).toMatchObject({ status: 'applied' });
    }
    const adminPage = await pull(admin);
    expect(adminPage.groups.map((group) => group.name).sort()).toEqual(['Client team', 'Panel Vendors']);
    expect(adminPage.groupMembers.map((row) => `${row.name} ${row.member}`).sort()).toEqual(['Alice true', 'Bob true', 'Carol true']);

    const alicePage = await pull(alice);
    expect(alicePage.groups).toEqual([expect.objectContaining({ id: vendors, name: 'Panel Vendors', member: true, gone: false })]);
    expect(alicePage.groupMembers).toEqual([]);
    const text = JSON.stringify(alicePage);
    expect(text).not.toContain(bob.memberId);
    expect(text).not.toContain(carol.memberId);
    expect(text).not.toContain('Client team');

    const carolPage = await pull(carol);
    expect(carolPage.groups.map((group) => group.name)).toEqual(['Client team']);
    expect(carolPage.groupMembers).toEqual([]);

    // An older device's pull carries no groups at all.
    expect('groups' in (await pullChanges(db, admin, 0, 1000, 6))).toBe(false);
  });

  it('tells a member taken out of a group once, blank, and nothing of it afterwards', async () => {
    const cursor = (await pull(alice)).cursor;
    expect(await send(admin, { type: 'removeGroupMember', groupId: vendors, memberId: alice.memberId })).toMatchObject({
      status: 'applied',
    });
    const removal = await pull(alice, cursor);
    expect(removal.groups).toEqual([
      { id: vendors, name: '', description: '', createdAt: 0, updatedAt: 0, member: false, gone: true, seq: removal.cursor },
    ]);
    expect(await send(admin, { type: 'editGroup', groupId: vendors, name: 'Panel partners', description: 'Secret plans' })).toMatchObject({
      status: 'applied',
    });
    const later = await pull(alice, removal.cursor);
    expect(later.groups).toEqual([]);
    expect(JSON.stringify(later)).not.toContain('Secret plans');
    // Bob, still in it, hears the new name; the admin hears Alice leave.
    expect((await pull(bob, removal.cursor)).groups.map((group) => group.name)).toEqual(['Panel partners']);
    const adminPage = await pull(admin, cursor);
    expect(adminPage.groupMembers).toEqual([expect.objectContaining({ groupId: vendors, memberId: alice.memberId, member: false })]);
    // From the start, Alice's pull has the group only as gone.
    expect((await pull(alice)).groups.map((group) => group.gone)).toEqual([true]);
  });

  it('writes each group operation in the staff log, with the group’s name and the member', async () => {
    const { entries } = await readStaffLog(db);
    const sentences = entries
      .filter((entry) => entry.action.includes('Group'))
      .map((entry) => [staffVerbOf(entry.action, null), entry.title, entry.member?.name ?? null].join(' | '));
    expect(sentences).toContain('removed a member from the group | Panel Vendors | Alice');
    expect(sentences).toContain('added a member to the group | Client team | Carol');
    expect(sentences).toContain('created the group | Panel vendors | ');
    expect(sentences).toContain('edited the group | Panel partners | ');
  });
});
