// editCategory: admins only; a category's name, description and who sees and posts in it. The
// spec's six are rows like any other: a rename changes only the name (posts keep pointing at the id).
import { casesOf, VENDORS } from './world';

const fields = { see: null, post: null };

export default casesOf('editCategory', [
  { name: 'a member: admins_only', who: 'bob', payload: { categoryId: 'Trends', name: 'Fads', ...fields }, expect: 'admins_only' },
  {
    name: 'an admin renames a default category and describes it: its id stays',
    who: 'admin',
    payload: { categoryId: 'Trends', name: 'Market trends', description: 'What moves.', ...fields },
    expect: {
      look: (read) => read.category('Trends'),
      is: '3 Market trends (What moves.) see: Everyone post: Everyone',
      onDevice: undefined,
    },
  },
  {
    name: 'a default category becomes private to a group',
    who: 'admin',
    payload: { categoryId: 'Case Studies', name: 'Case Studies', see: [VENDORS], post: null },
    expect: {
      look: (read) => read.category('Case Studies'),
      is: '5 Case Studies () see: Panel vendors post: Everyone',
      onDevice: undefined,
    },
  },
  { name: 'a category id that is not text: invalid', who: 'admin', payload: { categoryId: 7, name: 'Fads', ...fields }, expect: 'invalid' },
  {
    name: 'a name with a bidirectional isolate: invalid',
    who: 'admin',
    payload: { categoryId: 'Trends', name: '\u2066Fads', ...fields },
    expect: 'invalid',
  },
]);
