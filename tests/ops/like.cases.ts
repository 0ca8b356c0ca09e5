// like: an increment on an approved post the member may see.
import { ALICES_PENDING, BOBS_POST, casesOf, NO_POST } from './world';

export default casesOf('like', [
  {
    name: 'a member likes an approved post',
    who: 'alice',
    payload: { postId: BOBS_POST },
    expect: { look: async (read) => (await read.post(BOBS_POST))?.likes, is: 3 },
  },
  {
    name: 'its author may like it too',
    who: 'bob',
    payload: { postId: BOBS_POST },
    expect: { look: async (read) => (await read.post(BOBS_POST))?.likes, is: 3 },
  },
  {
    name: 'an import adds many at once',
    who: 'admin',
    payload: { postId: BOBS_POST, count: 40 },
    expect: { look: async (read) => (await read.post(BOBS_POST))?.likes, is: 42 },
  },
  { name: 'its author likes a pending post: not_approved', who: 'alice', payload: { postId: ALICES_PENDING }, expect: 'not_approved' },
  {
    name: 'an admin sees it, but it is not approved: not_approved',
    who: 'admin',
    payload: { postId: ALICES_PENDING },
    expect: 'not_approved',
  },
  { name: 'another member cannot see it: not_found', who: 'bob', payload: { postId: ALICES_PENDING }, expect: 'not_found' },
  { name: 'no such post: not_found', who: 'alice', payload: { postId: NO_POST }, expect: 'not_found' },
]);
