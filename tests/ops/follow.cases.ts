// follow (issue 62): a member's level on a post they may see, a category they may see, or a tag; the
// target's key as followTarget reads it (a tag in lower case); Normal is kept too.
import { ALICE, ALICES_PENDING, BOB, BOBS_POST, casesOf, NO_POST, VENDOR_ROOM } from './world';

export default casesOf('follow', [
  {
    name: 'a member watches a post they may see',
    who: 'alice',
    payload: { kind: 'post', target: String(BOBS_POST), level: 'watching' },
    expect: { look: (read) => read.following(ALICE), is: ['post Panel speeders watching'] },
  },
  {
    name: 'mutes a category, and a tag (kept in lower case)',
    who: 'bob',
    payload: { kind: 'tag', target: ' Options ', level: 'muted' },
    expect: { look: (read) => read.following(BOB), is: ['tag options muted'] },
  },
  {
    name: 'mutes a category anyone sees',
    who: 'bob',
    payload: { kind: 'category', target: 'Trends', level: 'muted' },
    expect: { look: (read) => read.following(BOB), is: ['category Trends muted'] },
  },
  {
    name: 'Normal is kept too (writing there no longer makes them watch it)',
    who: 'bob',
    payload: { kind: 'post', target: String(BOBS_POST), level: 'normal' },
    expect: { look: (read) => read.following(BOB), is: ['post Panel speeders normal'] },
  },
  {
    name: 'another’s pending post: not_found',
    who: 'bob',
    payload: { kind: 'post', target: String(ALICES_PENDING), level: 'watching' },
    expect: 'not_found',
  },
  {
    name: 'no such post: not_found',
    who: 'bob',
    payload: { kind: 'post', target: String(NO_POST), level: 'watching' },
    expect: 'not_found',
  },
  {
    name: 'a private category of a group Bob is not in: not_found',
    who: 'bob',
    payload: { kind: 'category', target: VENDOR_ROOM, level: 'watching' },
    expect: 'not_found',
  },
  {
    name: 'a post id that is not one: invalid',
    who: 'bob',
    payload: { kind: 'post', target: '12abc', level: 'watching' },
    expect: 'invalid',
  },
  { name: 'an empty tag: invalid', who: 'bob', payload: { kind: 'tag', target: '   ', level: 'watching' }, expect: 'invalid' },
  {
    name: 'a target that is not text: invalid',
    who: 'bob',
    payload: { kind: 'tag', target: 42 as never, level: 'watching' },
    expect: 'invalid',
  },
]);
