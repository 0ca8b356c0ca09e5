// moveCategory: admins only; a category's place in the lists.
import { casesOf } from './world';

export default casesOf('moveCategory', [
  { name: 'a member: admins_only', who: 'alice', payload: { categoryId: 'Trends', position: 0 }, expect: 'admins_only' },
  {
    name: 'an admin moves Trends first',
    who: 'admin',
    payload: { categoryId: 'Trends', position: 0 },
    expect: { look: (read) => read.category('Trends'), is: '0 Trends () see: Everyone post: Everyone', onDevice: undefined },
  },
  { name: 'a position that is not whole: invalid', who: 'admin', payload: { categoryId: 'Trends', position: 1.5 }, expect: 'invalid' },
  { name: 'a position past 10,000: invalid', who: 'admin', payload: { categoryId: 'Trends', position: 10_001 }, expect: 'invalid' },
]);
