// Categories on the server (issue 61, item 2), on PGlite and PostgreSQL: what only the server can
// refuse (a taken name, a group nobody has, a category nobody has), and each viewer's pull: a private
// category in full to its groups' members and admins, its id alone (`gone`) to everyone else; a member
// added to a group gets the categories it opens; a rename of one of the six reaches every device.
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

describe.each(BACKENDS)('categories (%s)', (backend) => {
  let db: Database;
  let admin: UserRow;
  let alice: UserRow;
  let bob: UserRow;
  const vendors = randomUUID();
  const room = randomUUID();

  beforeAll(async () => {
    db = await freshDatabase(backend);
    admin = (await findUser(db, ADMIN_EMAIL))!;
    const member = async (name: string) =>
      (await createUser(db, { email: `${name.toLowerCase()}@example.com`, name, role: 'user', passwordHash: 'x' }))!;
    alice = await member('Alice');
    bob = await member('Bob');
  });
  afterAll(async () => {
    await db?.close();
  });

  const send = async (user: UserRow, op: Record<string, unknown>) =>
    (await applyOp(db, user, { id: randomUUID(), ...op } as Op, PROTOCOL_VERSION)).result;
  const pull = async (user: UserRow, after = 0) => (await pullChanges(db, user, after, 1000, PROTOCOL_VERSION)) as PullResponse;

  it('starts with the six of the spec (built into every device: never pulled until changed)', async () => {
    const rows = await db.query('SELECT id, name, position FROM categories ORDER BY position');
    expect(rows.map((row) => row.name)).toEqual([
      'Quantitative',
      'Qualitative',
      'AI & Technology',
      'Trends',
      'Best Practices',
      'Case Studies',
    ]);
    expect(rows.every((row) => row.id === row.name)).toBe(true);
    expect((await pull(alice)).categories).toEqual([]);
  });

  it('refuses a taken name (by its key), a group nobody has and a category nobody has', async () => {
    expect(await send(admin, { type: 'createGroup', groupId: vendors, name: 'Panel vendors' })).toMatchObject({ status: 'applied' });
    const base = { type: 'createCategory', categoryId: room, position: 6, see: null, post: null };
    for (const name of ['TRENDS', 'ai technology', 'Ｔｒｅｎｄｓ']) {
      expect(await send(admin, { ...base, name }), name).toMatchObject({
        status: 'refused',
        code: 'invalid',
        reason: 'Another category already has this name. Choose another one.',
      });
    }
    expect(await send(admin, { ...base, name: 'Vendor room', see: [randomUUID()] })).toMatchObject({
      status: 'refused',
      code: 'not_found',
      reason: 'This group no longer exists.',
    });
    expect(await send(admin, { type: 'editCategory', categoryId: 'Nope', name: 'Nope', see: null, post: null })).toMatchObject({
      code: 'not_found',
      reason: 'This category no longer exists.',
    });
    expect(await send(admin, { type: 'archiveCategory', categoryId: randomUUID(), archived: true })).toMatchObject({ code: 'not_found' });
    expect(await send(admin, { ...base, name: 'Vendor room', description: 'Prices.', see: [vendors] })).toMatchObject({
      status: 'applied',
    });
  });

  it('pulls a private category in full to admins and its groups’ members, and its id alone to everyone else', async () => {
    const adminRow = (await pull(admin)).categories.find((category) => category.id === room);
    expect(adminRow).toMatchObject({ name: 'Vendor room', description: 'Prices.', see: [vendors], post: null, gone: false });
    const aliceCursor = (await pull(alice)).cursor;
    expect((await pull(alice)).categories).toEqual([
      { id: room, name: '', description: '', position: 0, archived: false, see: null, post: null, gone: true, seq: expect.any(Number) },
    ]);
    expect(JSON.stringify(await pull(alice))).not.toContain('Vendor room');
    // Added to the group, Alice's next pull carries the category it opens, in full.
    expect(await send(admin, { type: 'addGroupMember', groupId: vendors, memberId: alice.memberId })).toMatchObject({ status: 'applied' });
    const opened = await pull(alice, aliceCursor);
    expect(opened.categories.find((category) => category.id === room)).toMatchObject({ name: 'Vendor room', gone: false });
    // Bob still gets nothing of it.
    expect(JSON.stringify(await pull(bob))).not.toContain('Vendor room');
  });

  it('sends a rename of one of the six, and an archive, to every member', async () => {
    const cursor = (await pull(bob)).cursor;
    expect(await send(admin, { type: 'editCategory', categoryId: 'Trends', name: 'Market trends', see: null, post: null })).toMatchObject({
      status: 'applied',
    });
    expect(await send(admin, { type: 'archiveCategory', categoryId: 'Case Studies', archived: true })).toMatchObject({ status: 'applied' });
    const page = await pull(bob, cursor);
    expect(page.categories.map((category) => [category.id, category.name, category.archived])).toEqual([
      ['Trends', 'Market trends', false],
      ['Case Studies', 'Case Studies', true],
    ]);
    const { entries } = await readStaffLog(db);
    const words = entries.map((entry) => `${staffVerbOf(entry.action, entry.detail)} ${entry.title}`);
    expect(words).toContain('archived the category Case Studies');
    expect(words).toContain('edited the category Market trends');
    expect(words).toContain('created the category Vendor room');
  });

  it('takes posts in a private category from its groups’ members only, and none in an archived one', async () => {
    const post = (category: string) => ({ type: 'create', post: { title: 'Prices', content: 'Body', category } });
    expect(await send(alice, post(room))).toMatchObject({ status: 'applied' });
    // Bob is told what he is told of a category nobody has: nothing of it.
    expect(await send(bob, post(room))).toMatchObject({
      status: 'refused',
      code: 'invalid',
      reason: 'Please choose one of the forum’s categories.',
    });
    expect(await send(bob, post('Nowhere'))).toMatchObject({
      status: 'refused',
      code: 'invalid',
      reason: 'Please choose one of the forum’s categories.',
    });
    expect(await send(bob, post('Case Studies'))).toMatchObject({
      status: 'refused',
      code: 'invalid',
      reason: 'This category is archived and takes no new posts.',
    });
    // Renamed, Trends still takes posts by its id.
    expect(await send(bob, post('Trends'))).toMatchObject({ status: 'applied' });
  });

  it('pages and searches a category the member may see, the admins’ own too, and refuses one they may not see', async () => {
    const page = async (user: UserRow, category: string) =>
      (await import('../../../../server/db/categories/categories')).maySeeCategoryId(db, user, category);
    expect(await page(alice, room)).toBe(true);
    expect(await page(admin, room)).toBe(true);
    expect(await page(bob, room)).toBe(false);
    expect(await page(bob, 'Trends')).toBe(true);
    expect(await page(bob, 'Nowhere')).toBe(false);
  });
});
