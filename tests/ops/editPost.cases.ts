// editPost: only its author, over the status they saw; a rejected post goes back to review.
import { ALICE, ALICES_PENDING, ALICES_POST, ALICES_REJECTED, casesOf } from './world';

const text = { title: 'Better title', content: 'Better content.', category: 'Trends' };

export default casesOf('editPost', [
  {
    name: 'its author edits a rejected post: it is pending again, its reason gone',
    who: 'alice',
    payload: { postId: ALICES_REJECTED, post: text, base: 'rejected' },
    expect: {
      look: (read) => read.post(ALICES_REJECTED),
      is: { status: 'pending', reason: null, title: 'Better title', likes: 0, views: 0, comments: 0, author: 'Alice' },
    },
  },
  {
    name: 'its author edits an approved post: it stays approved, and its notifications name its new title',
    who: 'alice',
    payload: { postId: ALICES_POST, post: text, base: 'approved' },
    expect: {
      look: async (read) => [
        (await read.post(ALICES_POST))?.status,
        (await read.post(ALICES_POST))?.title,
        await read.notificationTitles(ALICE),
      ],
      is: ['approved', 'Better title', ['Better title']],
    },
  },
  {
    name: 'a review came in between: edit_conflict',
    who: 'alice',
    payload: { postId: ALICES_PENDING, post: text, base: 'approved' },
    expect: 'edit_conflict',
  },
  {
    name: 'another member: not_your_post',
    who: 'bob',
    payload: { postId: ALICES_POST, post: text, base: 'approved' },
    expect: 'not_your_post',
  },
  {
    name: 'an admin edits no one else’s post: not_your_post',
    who: 'admin',
    payload: { postId: ALICES_POST, post: text, base: 'approved' },
    expect: 'not_your_post',
  },
  {
    name: 'another member’s pending post: not_found',
    who: 'bob',
    payload: { postId: ALICES_PENDING, post: text, base: 'pending' },
    expect: 'not_found',
  },
  {
    name: 'a blank content: invalid',
    who: 'alice',
    payload: { postId: ALICES_POST, post: { ...text, content: ' ' }, base: 'approved' },
    expect: 'invalid',
  },
]);
