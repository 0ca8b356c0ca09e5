// A category seen by more members than before (to everyone, or a group it did not name) reaches the
// newly allowed: its posts and their replies take the edit's change number, so their next pull brings
// them (they were below their cursor); an edit that lets nobody new in renumbers nothing. And a member
// taken out of a group hears, in the same page, that the categories it opened are gone (their devices
// drop those posts, src/db/sync/revoked.ts). PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { applyOp } from '../../../../server/db/ops/apply';
import { createUser, findUser, type UserRow } from '../../../../server/db/members/accounts';
import { pullChanges } from '../../../../server/db/sync/changes';
import type { Database } from '../../../../server/db/storage/adapter';
import { PROTOCOL_VERSION, type Op, type PullResponse } from '../../../../src/shared/protocol';
import { ADMIN_EMAIL, BACKENDS, freshDatabase } from '../../support/databases';

describe.each(BACKENDS)('a widened category (%s)', (backend) => {
  let db: Database;
  let admin: UserRow;
  let bob: UserRow;
  const staff = randomUUID();
  const panel = randomUUID();
  const room = randomUUID();
  let postId = 0;

  beforeAll(async () => {
    db = await freshDatabase(backend);
    admin = (await findUser(db, ADMIN_EMAIL))!;
    bob = (await createUser(db, { email: 'bob@example.com', name: 'Bob', role: 'user', passwordHash: 'x' }))!;
  });
  afterAll(async () => {
    await db?.close();
  });

  const send = async (user: UserRow, op: Record<string, unknown>) =>
    (await applyOp(db, user, { id: randomUUID(), ...op } as Op, PROTOCOL_VERSION)).result;
  const pull = async (user: UserRow, after = 0) => (await pullChanges(db, user, after, 1000, PROTOCOL_VERSION)) as PullResponse;
  const edit = (see: string[] | null) => send(admin, { type: 'editCategory', categoryId: room, name: 'Staff room', see, post: null });

  it('sets up a private category with a post and a reply Bob cannot see', async () => {
    for (const [groupId, name] of [
      [staff, 'Planning'],
      [panel, 'Panel'],
    ])
      expect(await send(admin, { type: 'createGroup', groupId, name })).toMatchObject({ status: 'applied' });
    expect(await send(admin, { type: 'addGroupMember', groupId: panel, memberId: bob.memberId })).toMatchObject({ status: 'applied' });
    expect(
      await send(admin, { type: 'createCategory', categoryId: room, position: 6, name: 'Staff room', see: [staff], post: null }),
    ).toMatchObject({ status: 'applied' });
    const created = await send(admin, { type: 'create', post: { title: 'Budget', content: 'Numbers', category: room } });
    expect(created).toMatchObject({ status: 'applied' });
    postId = Number((created as { postId?: number }).postId);
    expect(await send(admin, { type: 'approve', postId })).toMatchObject({ status: 'applied' });
    expect(await send(admin, { type: 'reply', postId, content: 'Agreed' })).toMatchObject({ status: 'applied' });
    const page = await pull(bob);
    expect(page.posts.map((post) => post.id)).not.toContain(postId);
    expect(page.replies.map((reply) => reply.postId)).not.toContain(postId);
  });

  it('brings its posts and replies to a member whose group it now names, in their next pull', async () => {
    const cursor = (await pull(bob)).cursor;
    // Naming the same group again lets nobody new in: nothing of it moves.
    expect(await edit([staff])).toMatchObject({ status: 'applied' });
    expect((await pull(bob, cursor)).posts).toEqual([]);
    expect(await edit([staff, panel])).toMatchObject({ status: 'applied' });
    const page = await pull(bob, cursor);
    expect(page.posts.map((post) => post.id)).toEqual([postId]);
    expect(page.replies.map((reply) => [reply.postId, reply.content])).toEqual([[postId, 'Agreed']]);
  });

  it('brings them to everyone when it is opened to everyone, and renumbers nothing once it is', async () => {
    expect(await edit([staff])).toMatchObject({ status: 'applied' });
    expect(await send(admin, { type: 'removeGroupMember', groupId: panel, memberId: bob.memberId })).toMatchObject({ status: 'applied' });
    const cursor = (await pull(bob)).cursor;
    expect(await edit(null)).toMatchObject({ status: 'applied' });
    const page = await pull(bob, cursor);
    expect(page.posts.map((post) => post.id)).toEqual([postId]);
    expect(page.replies.map((reply) => reply.postId)).toEqual([postId]);
    // Already everyone's: a rename moves the category alone.
    const after = page.cursor;
    expect(await edit(null)).toMatchObject({ status: 'applied' });
    const renamed = await pull(bob, after);
    expect(renamed.posts).toEqual([]);
    expect(renamed.categories.map((category) => category.id)).toEqual([room]);
  });
  it('tells a member taken out of a group, in the one page, that the categories it opened are gone', async () => {
    const vault = randomUUID();
    expect(await send(admin, { type: 'addGroupMember', groupId: panel, memberId: bob.memberId })).toMatchObject({ status: 'applied' });
    expect(
      await send(admin, { type: 'createCategory', categoryId: vault, position: 7, name: 'Panel vault', see: [panel], post: null }),
    ).toMatchObject({ status: 'applied' });
    const cursor = (await pull(bob)).cursor;
    expect(await send(admin, { type: 'removeGroupMember', groupId: panel, memberId: bob.memberId })).toMatchObject({ status: 'applied' });
    const page = await pull(bob, cursor);
    expect(page.groups.map((group) => [group.id, group.gone])).toEqual([[panel, true]]);
    expect(page.categories.find((category) => category.id === vault)).toMatchObject({ name: '', gone: true });
    // The category everyone sees comes too (every category follows a change of the member's groups), not gone.
    expect(page.categories.find((category) => category.id === room)).toMatchObject({ gone: false });
  });
});
