// createCategory: admins only; a name (unique by its key, never "All", no hidden characters, at most
// 60 characters), a description, a position, and who sees and posts in it (Everyone, or groups).
// Only the server holds categories: a taken name and a group nobody has are its refusals alone
// (tests/server/db/groups/categories.test.ts).
import { casesOf, NEW_GROUP, VENDORS } from './world';

const NEW_CATEGORY = '0e000000-0000-4000-8000-0000000000e9';
const base = { categoryId: NEW_CATEGORY, position: 6, see: null, post: null };

export default casesOf('createCategory', [
  { name: 'a member: admins_only', who: 'alice', payload: { ...base, name: 'Vendor talk' }, expect: 'admins_only' },
  {
    name: 'an admin creates a category everyone sees (trimmed)',
    who: 'admin',
    payload: { ...base, name: ' Vendor talk ', description: ' About panels. ' },
    expect: {
      look: (read) => read.category(NEW_CATEGORY),
      is: '6 Vendor talk (About panels.) see: Everyone post: Everyone',
      onDevice: undefined,
    },
  },
  {
    name: 'a category only a group sees, where only that group posts',
    who: 'admin',
    payload: { ...base, name: 'Vendor den', see: [VENDORS], post: [VENDORS, VENDORS] },
    expect: {
      look: (read) => read.category(NEW_CATEGORY),
      is: '6 Vendor den () see: Panel vendors post: Panel vendors',
      onDevice: undefined,
    },
  },
  { name: 'a blank name: invalid', who: 'admin', payload: { ...base, name: ' ' }, expect: 'invalid' },
  { name: 'the name All: invalid', who: 'admin', payload: { ...base, name: 'all' }, expect: 'invalid' },
  { name: 'a name of 61 characters: invalid', who: 'admin', payload: { ...base, name: 'x'.repeat(61) }, expect: 'invalid' },
  { name: 'a name of a million characters: invalid', who: 'admin', payload: { ...base, name: 'x'.repeat(1_000_000) }, expect: 'invalid' },
  { name: 'a name with a zero width joiner: invalid', who: 'admin', payload: { ...base, name: 'Vendor\u200Dtalk' }, expect: 'invalid' },
  { name: 'a name with a right-to-left override: invalid', who: 'admin', payload: { ...base, name: 'Talk\u202Ekaep' }, expect: 'invalid' },
  {
    name: 'who sees: a group id in upper case (ids are compared as written): invalid',
    who: 'admin',
    payload: { ...base, name: 'Vendor talk', see: [VENDORS.toUpperCase()] },
    expect: 'invalid',
  },
  { name: 'who sees: not a list: invalid', who: 'admin', payload: { ...base, name: 'Vendor talk', see: 'everyone' }, expect: 'invalid' },
  { name: 'who sees: an empty list: invalid', who: 'admin', payload: { ...base, name: 'Vendor talk', see: [] }, expect: 'invalid' },
  { name: 'who sees: not group ids: invalid', who: 'admin', payload: { ...base, name: 'Vendor talk', see: ['x'] }, expect: 'invalid' },
  {
    name: 'who posts: 51 groups: invalid',
    who: 'admin',
    payload: {
      ...base,
      name: 'Vendor talk',
      post: Array.from({ length: 51 }, (_, index) => NEW_GROUP.replace(/d9$/, index.toString(16).padStart(2, '0'))),
    },
    expect: 'invalid',
  },
  { name: 'a negative position: invalid', who: 'admin', payload: { ...base, name: 'Vendor talk', position: -1 }, expect: 'invalid' },
]);
