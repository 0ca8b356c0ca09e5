// The Categories tab's operations (admins only, protocol 7; issue 61, item 2): create a category (its
// id a UUID made on the admin's device), edit its name, description and who sees and posts in it,
// move it in the lists, archive it or bring it back. The spec's six are rows like any other (their ids
// their spec names). Only the server holds every category: a device records none of them (its pull
// brings the server's word back), as for groups. Each is in the staff log.
import {
  CATEGORY_LIMITS,
  CATEGORY_NAME_TAKEN,
  CATEGORY_NOT_FOUND,
  validateCategoryDescription,
  validateCategoryName,
  type Category,
} from '../categories';
import { GROUP_NOT_FOUND } from '../groups';
import { CATEGORIES } from '../post-rules';
import { check, defineOp, OpRefusal, refuseInput, type Zod } from './define';
import { textOf } from './fields';
import type { OpStore } from './store';

/** A UUID as the devices make them: in lower case (ids are compared as written). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A category's id as sent: text, at most CATEGORY_LIMITS.id characters. One that is neither a spec
 * name nor a UUID in lower case is nobody's category: refused as one, without a query (a NUL reached
 * the database and answered `failed`, which a device sends again).
 */
function categoryIdOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > CATEGORY_LIMITS.id) {
    refuseInput({ code: 'invalid', title: 'Error', message: 'Choose a category.' });
  }
  if (!((CATEGORIES as readonly string[]).includes(value) || UUID.test(value))) {
    throw new OpRefusal('not_found', CATEGORY_NOT_FOUND.message, CATEGORY_NOT_FOUND.title);
  }
  return value;
}

/** Who sees or posts: null (everyone) or a list of group ids (UUIDs, at most CATEGORY_LIMITS.groups, each once). */
function groupsOf(value: unknown, field: string): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string' || !UUID.test(id))) {
    refuseInput({ code: 'invalid', title: 'Error', message: `${field}: choose Everyone, or groups.` });
  }
  const ids = [...new Set(value as string[])];
  if (ids.length === 0)
    refuseInput({ code: 'invalid', title: 'Choose a group', message: `${field}: choose at least one group, or Everyone.` });
  if (ids.length > CATEGORY_LIMITS.groups) {
    refuseInput({ code: 'invalid', title: 'Too many groups', message: `${field}: at most ${CATEGORY_LIMITS.groups} groups.` });
  }
  return ids;
}

/** A position in the lists: a whole number from 0 to 10,000. */
function positionOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > 10_000) {
    refuseInput({ code: 'invalid', title: 'Error', message: 'A position is a whole number from 0 to 10,000.' });
  }
  return value;
}

/** The name, description and who sees and posts, as sent, checked and trimmed. */
function categoryFields(op: { name: unknown; description?: unknown; see: unknown; post: unknown }) {
  const name = textOf(op.name);
  const description = op.description === undefined || op.description === null ? '' : textOf(op.description);
  check(validateCategoryName(name));
  check(validateCategoryDescription(description));
  return {
    name: name.trim(),
    description: description.trim(),
    see: groupsOf(op.see, 'Who can see'),
    post: groupsOf(op.post, 'Who can post'),
  };
}

/** The category of `id` (else refused); undefined on a device, which holds the server's word only. */
async function existingCategory(store: OpStore, id: string): Promise<Category | undefined> {
  const category = await store.category(id);
  if (category === 'unknown') return undefined;
  if (!category) throw new OpRefusal('not_found', CATEGORY_NOT_FOUND.message, CATEGORY_NOT_FOUND.title);
  return category;
}

/** Refuses a name another category holds, and a group nobody has (the server's word). */
async function checkFields(store: OpStore, id: string, fields: { name: string; see: string[] | null; post: string[] | null }) {
  if (await store.categoryNameTaken(fields.name, id)) refuseInput({ code: 'invalid', ...CATEGORY_NAME_TAKEN });
  for (const groupId of new Set([...(fields.see ?? []), ...(fields.post ?? [])])) {
    if ((await store.group(groupId)) === undefined) throw new OpRefusal('not_found', GROUP_NOT_FOUND.message, GROUP_NOT_FOUND.title);
  }
}

const fieldsWire = (z: Zod) => ({
  name: z.unknown(),
  description: z.unknown().optional(),
  see: z.unknown(),
  post: z.unknown(),
});

export const createCategory = defineOp('createCategory', 7, 'admin', {
  staff: { when: 'always', verb: () => 'created the category' },
  wire: (z, f) => ({ categoryId: f.uuid, position: z.number(), ...fieldsWire(z) }),
  parse: (op) => ({ categoryId: op.categoryId, position: positionOf(op.position), ...categoryFields(op) }),
  sendUnchanged: true,
  async run(store, _actor, { categoryId, position, ...fields }) {
    const before = await store.category(categoryId);
    if (before !== undefined && before !== 'unknown') {
      refuseInput({ code: 'invalid', title: 'Category exists', message: 'A category with this id exists already.' });
    }
    await checkFields(store, categoryId, fields);
    await store.saveCategory({ id: categoryId, position, archived: false, ...fields });
  },
});

export const editCategory = defineOp('editCategory', 7, 'admin', {
  staff: { when: 'always', verb: () => 'edited the category' },
  wire: (z) => ({ categoryId: z.unknown(), ...fieldsWire(z) }),
  parse: (op) => ({ categoryId: categoryIdOf(op.categoryId), ...categoryFields(op) }),
  sendUnchanged: true,
  async run(store, _actor, { categoryId, ...fields }) {
    const category = await existingCategory(store, categoryId);
    await checkFields(store, categoryId, fields);
    if (category) await store.saveCategory({ ...category, ...fields });
  },
});

export const moveCategory = defineOp('moveCategory', 7, 'admin', {
  staff: { when: 'always', verb: () => 'moved the category' },
  wire: (z) => ({ categoryId: z.unknown(), position: z.number() }),
  parse: (op) => ({ categoryId: categoryIdOf(op.categoryId), position: positionOf(op.position) }),
  sendUnchanged: true,
  async run(store, _actor, { categoryId, position }) {
    const category = await existingCategory(store, categoryId);
    if (category) await store.saveCategory({ ...category, position });
  },
});

export const archiveCategory = defineOp('archiveCategory', 7, 'admin', {
  staff: { when: 'always', verb: ({ archived }) => (archived === false ? 'brought back the category' : 'archived the category') },
  wire: (z) => ({ categoryId: z.unknown(), archived: z.boolean() }),
  parse: (op) => ({ categoryId: categoryIdOf(op.categoryId), archived: op.archived }),
  sendUnchanged: true,
  async run(store, _actor, { categoryId, archived }) {
    const category = await existingCategory(store, categoryId);
    if (category) await store.saveCategory({ ...category, archived });
  },
});
