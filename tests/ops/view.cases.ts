// view: a member's first view of a post they may see counts.
import { ALICES_PENDING, BOBS_POST, casesOf, NO_POST } from './world';

export default casesOf('view', [
  {
    name: 'a member’s first view counts',
    who: 'alice',
    payload: { postId: BOBS_POST },
    expect: { look: async (read) => (await read.post(BOBS_POST))?.views, is: 1 },
  },
  {
    name: 'an admin sees a pending post',
    who: 'admin',
    payload: { postId: ALICES_PENDING },
    expect: { look: async (read) => (await read.post(ALICES_PENDING))?.views, is: 1 },
  },
  { name: 'another member’s pending post: not_found', who: 'bob', payload: { postId: ALICES_PENDING }, expect: 'not_found' },
  { name: 'no such post: not_found', who: 'bob', payload: { postId: NO_POST }, expect: 'not_found' },
]);
