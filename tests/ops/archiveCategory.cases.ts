// archiveCategory: admins only; a category archived (its posts stay readable, it takes no new ones) or brought back.
import { casesOf } from './world';

export default casesOf('archiveCategory', [
  { name: 'a member: admins_only', who: 'alice', payload: { categoryId: 'Trends', archived: true }, expect: 'admins_only' },
  {
    name: 'a category id with a NUL character: nobody’s, not_found',
    who: 'admin',
    payload: { categoryId: 'Trends\u0000', archived: true },
    expect: 'not_found',
  },
  {
    name: 'a category id that is neither a spec name nor a UUID in lower case: nobody’s, not_found',
    who: 'admin',
    payload: { categoryId: '0C000000-0000-4000-8000-0000000000C1', archived: true },
    expect: 'not_found',
  },
  {
    name: 'an admin archives Trends',
    who: 'admin',
    payload: { categoryId: 'Trends', archived: true },
    expect: { look: (read) => read.category('Trends'), is: '3 Trends () see: Everyone post: Everyone archived', onDevice: undefined },
  },
  {
    name: 'bringing back a category that is not archived changes nothing but its change number',
    who: 'admin',
    payload: { categoryId: 'Quantitative', archived: false },
    expect: { look: (read) => read.category('Quantitative'), is: '0 Quantitative () see: Everyone post: Everyone', onDevice: undefined },
  },
]);
