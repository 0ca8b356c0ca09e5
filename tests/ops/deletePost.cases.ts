// deletePost: its author or an admin; its flags and its replies' are settled.
import { ALICES_PENDING, ALICES_POST, ALICES_REPLY, BOBS_POST, casesOf } from './world';

export default casesOf('deletePost', [
  {
    name: 'its author deletes a pending post',
    who: 'alice',
    payload: { postId: ALICES_PENDING },
    expect: { look: (read) => read.post(ALICES_PENDING), is: undefined },
  },
  {
    name: 'an admin deletes a post: its flags and its replies’ are settled',
    who: 'admin',
    payload: { postId: BOBS_POST },
    expect: {
      look: async (read) => [await read.post(BOBS_POST), await read.flags(BOBS_POST), await read.reply(ALICES_REPLY)],
      is: [undefined, ['alice resolved', 'bob resolved reply'], { state: 'visible', content: 'Agreed.' }],
      // The device takes the thread with its post (the server keeps the rows under the deleted post).
      onDevice: [undefined, ['alice resolved', 'bob resolved reply'], undefined],
    },
  },
  { name: 'another member: not_your_post', who: 'bob', payload: { postId: ALICES_POST }, expect: 'not_your_post' },
  { name: 'another member’s pending post: not_found', who: 'bob', payload: { postId: ALICES_PENDING }, expect: 'not_found' },
]);
