// An admin's device holds every group and category its pulls told of: a name one of them already has
// (by its key: case, width and spacing aside) is refused on the device, so the admin's form stays open
// with what they typed (a new-user trial: New category closed on " quantitative " and lost the form),
// and nothing is queued. The server settles a name taken since the last pull.
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { markConnected } from '../../../../src/db/ops/sync-meta';
import { createCategory, createGroup, editCategory } from '../../../../src/db/groups/groups';
import { signInAsAdmin } from '../../factories';

const VENDORS = '0d000000-0000-4000-8000-0000000000d1';
const ROOM = '0c000000-0000-4000-8000-0000000000c1';
const fields = (name: string) => ({ name, description: '', see: null, post: null });

beforeEach(async () => {
  await markConnected();
  signInAsAdmin();
  await db.groups.put({ id: VENDORS, name: 'Panel vendors', description: '', createdAt: 1, updatedAt: 1, member: 0, seq: 1 });
  await db.categories.put({
    id: ROOM,
    name: 'Vendor room',
    description: '',
    position: 6,
    archived: false,
    see: null,
    post: null,
    hidden: 0,
    seq: 2,
  });
});

describe('a name another group or category already has', () => {
  it('is refused on the device in words, and nothing is queued', async () => {
    await expect(createCategory(fields(' quantitative '), 7)).rejects.toThrow(
      'Another category already has this name. Choose another one.',
    );
    await expect(createCategory(fields('VENDOR  ROOM'), 7)).rejects.toThrow('Another category already has this name.');
    await expect(createGroup('panel vendors', '')).rejects.toThrow('Another group already has this name. Choose another one.');
    expect(await db.outbox.count()).toBe(0);
  });

  it('a category keeps its own name, written otherwise; a new name is queued', async () => {
    await editCategory(ROOM, fields('Vendor Room'));
    await createCategory(fields('Pricing'), 7);
    expect((await db.outbox.toArray()).map((row) => row.op.type)).toEqual(['editCategory', 'createCategory']);
  });
});
