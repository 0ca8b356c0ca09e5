// flag: an approved post or a visible reply of it, once per member and item, never one's own.
import { ALICES_PENDING, ALICES_POST, BOBS_POST, BOBS_REPLY, casesOf, HIDDEN_REPLY, NEW_ID } from './world';

export default casesOf('flag', [
  {
    name: 'a member flags another’s approved post',
    who: 'bob',
    id: NEW_ID,
    payload: { postId: ALICES_POST, replyId: null, reason: 'spam' },
    expect: { look: (read) => read.flags(ALICES_POST), is: ['bob open'] },
  },
  {
    name: 'a member flags another’s visible reply, with their words',
    who: 'alice',
    id: NEW_ID,
    payload: { postId: BOBS_POST, replyId: BOBS_REPLY, reason: 'other', text: 'Not about research' },
    expect: { look: (read) => read.flags(BOBS_POST), is: ['alice open', 'alice open reply', 'bob open reply'] },
  },
  {
    name: 'twice: already_flagged',
    who: 'alice',
    id: NEW_ID,
    payload: { postId: BOBS_POST, replyId: null, reason: 'spam' },
    expect: 'already_flagged',
  },
  {
    name: 'one’s own post: cannot_flag_own',
    who: 'alice',
    id: NEW_ID,
    payload: { postId: ALICES_POST, replyId: null, reason: 'spam' },
    expect: 'cannot_flag_own',
  },
  {
    name: 'a pending post: not_found',
    who: 'alice',
    id: NEW_ID,
    payload: { postId: ALICES_PENDING, replyId: null, reason: 'spam' },
    expect: 'not_found',
  },
  {
    name: 'a hidden reply: reply_not_found',
    who: 'alice',
    id: NEW_ID,
    payload: { postId: BOBS_POST, replyId: HIDDEN_REPLY, reason: 'spam' },
    expect: 'reply_not_found',
  },
  {
    name: 'a reply of another post: reply_not_found',
    who: 'bob',
    id: NEW_ID,
    payload: { postId: ALICES_POST, replyId: BOBS_REPLY, reason: 'spam' },
    expect: 'reply_not_found',
  },
  {
    name: '"other" without words: invalid',
    who: 'bob',
    id: NEW_ID,
    payload: { postId: ALICES_POST, replyId: null, reason: 'other' },
    expect: 'invalid',
  },
  {
    name: 'no reason of the list: invalid',
    who: 'bob',
    id: NEW_ID,
    payload: { postId: ALICES_POST, replyId: null, reason: 'boring' },
    expect: 'invalid',
  },
  {
    name: 'words with a zero width space: invalid',
    who: 'bob',
    id: NEW_ID,
    payload: { postId: ALICES_POST, replyId: null, reason: 'other', text: 'spam\u200B' },
    expect: 'invalid',
  },
]);
