// create: any member writes a post; it starts pending; the New Post rules refuse bad input.
import { ADMIN, ALICE, BOB, casesOf, OLD_ROOM, VENDOR_ROOM } from './world';

export default casesOf('create', [
  {
    name: 'a member writes a post: it waits for review, theirs',
    who: 'bob',
    payload: { post: { title: '  Fresh  ', content: 'Findings.', category: 'Trends' } },
    expect: {
      look: async (read) => [await read.postsOf(BOB), await read.following(BOB), await read.readIn(BOB)],
      is: [['Fresh pending', 'Old poll approved', 'Panel speeders approved'], ['post Fresh watching'], ['Fresh post']],
    },
  },
  {
    name: 'an admin writes one too',
    who: 'admin',
    payload: { post: { title: 'Rules', content: 'Be kind.', category: 'Best Practices', tags: ['meta'] } },
    expect: {
      look: async (read) => [await read.postsOf(ADMIN), await read.following(ADMIN), await read.readIn(ADMIN)],
      is: [['Rules pending'], ['post Rules watching'], ['Rules post']],
    },
  },
  {
    name: 'a blank title: invalid',
    who: 'alice',
    payload: { post: { title: ' ', content: 'Body', category: 'Trends' } },
    expect: 'invalid',
  },
  {
    name: 'no category of the six: invalid',
    who: 'alice',
    payload: { post: { title: 'T', content: 'Body', category: 'Gossip' } },
    expect: 'invalid',
  },
  {
    name: 'a category id that is not text: invalid',
    who: 'alice',
    payload: { post: { title: 'T', content: 'Body', category: 42 } },
    expect: 'invalid',
  },
  {
    name: 'an archived category: invalid (its posts stay, it takes no new ones)',
    who: 'alice',
    payload: { post: { title: 'T', content: 'Body', category: OLD_ROOM } },
    expect: 'invalid',
  },
  {
    name: 'a private category of a group Bob is not in: invalid, as a category nobody has',
    who: 'bob',
    payload: { post: { title: 'T', content: 'Body', category: VENDOR_ROOM } },
    expect: 'invalid',
  },
  {
    name: 'an admin posts in a private category',
    who: 'admin',
    payload: { post: { title: 'Prices', content: 'Body', category: VENDOR_ROOM } },
    expect: {
      look: async (read) => [await read.postsOf(ADMIN), await read.following(ADMIN), await read.readIn(ADMIN)],
      is: [['Prices pending'], ['post Prices watching'], ['Prices post']],
    },
  },
  {
    name: 'eleven tags: invalid, nothing written',
    who: 'alice',
    payload: { post: { title: 'T', content: 'Body', category: 'Trends', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) } },
    expect: 'invalid',
  },
  {
    name: 'a NUL in the content: invalid',
    who: 'alice',
    payload: { post: { title: 'T', content: 'Bo\0dy', category: 'Trends' } },
    expect: 'invalid',
  },
  {
    name: 'a poll of one option: invalid',
    who: 'alice',
    payload: {
      post: {
        title: 'T',
        content: 'Body',
        category: 'Trends',
        poll: { question: 'Q?', options: ['Yes', ' '], multiple: false, closesAt: null },
      },
    },
    expect: 'invalid',
  },
  {
    name: 'a poll closing in the past: invalid',
    who: 'alice',
    payload: {
      post: {
        title: 'T',
        content: 'Body',
        category: 'Trends',
        poll: { question: 'Q?', options: ['Yes', 'No'], multiple: false, closesAt: 1 },
      },
    },
    expect: 'invalid',
  },
  {
    name: 'a poll of eleven options: invalid',
    who: 'alice',
    payload: {
      post: {
        title: 'T',
        content: 'Body',
        category: 'Trends',
        poll: { question: 'Q?', options: Array.from({ length: 11 }, (_, i) => `o${i}`), multiple: false, closesAt: null },
      },
    },
    expect: 'invalid',
  },
  {
    name: 'a poll whose options repeat: invalid',
    who: 'alice',
    payload: {
      post: {
        title: 'T',
        content: 'Body',
        category: 'Trends',
        poll: { question: 'Q?', options: ['Yes', 'yes'], multiple: false, closesAt: null },
      },
    },
    expect: 'invalid',
  },
  {
    name: 'a title of two lines: invalid (issue 59: a title is one line)',
    who: 'alice',
    payload: { post: { title: 'Line one\r\nBcc: all@example.com', content: 'Body', category: 'Trends' } },
    expect: 'invalid',
  },
  {
    name: 'a right-to-left override in the title: invalid',
    who: 'alice',
    payload: { post: { title: 'report\u202Egnp.exe', content: 'Body', category: 'Trends' } },
    expect: 'invalid',
  },
  {
    name: 'a zero width space in a tag: invalid',
    who: 'alice',
    payload: { post: { title: 'T', content: 'Body', category: 'Trends', tags: ['ma\u200Bxdiff'] } },
    expect: 'invalid',
  },
  {
    name: 'a poll of five blank options and ten real ones: invalid, not trimmed to fit',
    who: 'alice',
    payload: {
      post: {
        title: 'T',
        content: 'Body',
        category: 'Trends',
        poll: {
          question: 'Q?',
          options: [...Array.from({ length: 10 }, (_, i) => `o${i}`), '', '', ' ', '', ''],
          multiple: false,
          closesAt: null,
        },
      },
    },
    expect: 'invalid',
  },
  {
    name: 'a poll with a blank option among three: invalid, not dropped',
    who: 'alice',
    payload: {
      post: {
        title: 'T',
        content: 'Body',
        category: 'Trends',
        poll: { question: 'Q?', options: ['Yes', '', 'No'], multiple: false, closesAt: null },
      },
    },
    expect: 'invalid',
  },
  {
    name: 'a poll whose options are the same once normalized (full width, composed): invalid',
    who: 'alice',
    payload: {
      post: {
        title: 'T',
        content: 'Body',
        category: 'Trends',
        poll: { question: 'Q?', options: ['Café', 'CAFE\u0301', 'ＹＥＳ', 'yes'], multiple: false, closesAt: null },
      },
    },
    expect: 'invalid',
  },
  {
    name: 'a poll option with a direction override: invalid',
    who: 'alice',
    payload: {
      post: {
        title: 'T',
        content: 'Body',
        category: 'Trends',
        poll: { question: 'Q?', options: ['Yes', 'N\u202Eo'], multiple: false, closesAt: null },
      },
    },
    expect: 'invalid',
  },
  {
    name: 'a post with a poll: written like any post',
    who: 'bob',
    payload: {
      post: {
        title: 'Asked',
        content: 'Body',
        category: 'Trends',
        poll: { question: 'Q?', options: ['Yes', 'No'], multiple: false, closesAt: null },
      },
    },
    expect: {
      look: async (read) => [await read.postsOf(BOB), await read.following(BOB), await read.readIn(BOB)],
      is: [['Asked pending', 'Old poll approved', 'Panel speeders approved'], ['post Asked watching'], ['Asked post']],
    },
  },
  {
    name: 'what was refused left no post',
    who: 'alice',
    payload: { post: { title: 'Only this one', content: 'Body', category: 'Trends' } },
    expect: {
      look: async (read) => [await read.postsOf(ALICE), await read.following(ALICE), await read.readIn(ALICE)],
      is: [
        ['Only this one pending', 'Turned down rejected', 'Waiting pending', 'Weighting approved'],
        ['post Only this one watching'],
        ['Only this one post'],
      ],
    },
  },
]);
