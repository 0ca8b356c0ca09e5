// createGroup: admins only; a name (unique by its key, no staff words, no hidden characters, at most
// 100 characters) and a description. Only the server holds groups: a taken name is its refusal alone
// (tests/server/db/sync/groups.test.ts).
import { casesOf, NEW_GROUP } from './world';

const ALL = ['Panel vendors (Who runs the panels.): Alice'];

export default casesOf('createGroup', [
  { name: 'a member: admins_only', who: 'alice', payload: { groupId: NEW_GROUP, name: 'Agency leads' }, expect: 'admins_only' },
  {
    name: 'an admin creates a group (trimmed): the server holds it, a device none',
    who: 'admin',
    payload: { groupId: NEW_GROUP, name: '  Agency leads ', description: ' Leads of agencies. ' },
    expect: {
      look: (read) => read.groups(),
      is: ['Agency leads (Leads of agencies.): ', ...ALL],
      onDevice: [],
    },
  },
  { name: 'a blank name: invalid', who: 'admin', payload: { groupId: NEW_GROUP, name: '  ' }, expect: 'invalid' },
  {
    name: 'a name of only invisible characters: invalid',
    who: 'admin',
    payload: { groupId: NEW_GROUP, name: '\u200B\u2060' },
    expect: 'invalid',
  },
  {
    name: 'a name with a right-to-left override: invalid',
    who: 'admin',
    payload: { groupId: NEW_GROUP, name: 'Vendors\u202Ecod' },
    expect: 'invalid',
  },
  { name: 'a staff word: invalid', who: 'admin', payload: { groupId: NEW_GROUP, name: 'Moderator team' }, expect: 'invalid' },
  { name: 'a name of 101 characters: invalid', who: 'admin', payload: { groupId: NEW_GROUP, name: 'x'.repeat(101) }, expect: 'invalid' },
  {
    name: 'a name of a million characters: invalid',
    who: 'admin',
    payload: { groupId: NEW_GROUP, name: 'x'.repeat(1_000_000) },
    expect: 'invalid',
  },
  {
    name: 'a description of 501 characters: invalid',
    who: 'admin',
    payload: { groupId: NEW_GROUP, name: 'Agency leads', description: 'x'.repeat(501) },
    expect: 'invalid',
  },
  {
    name: 'a description with a bidirectional isolate: invalid',
    who: 'admin',
    payload: { groupId: NEW_GROUP, name: 'Agency leads', description: 'Leads \u2067of\u2069 agencies' },
    expect: 'invalid',
  },
  { name: 'a name that is not text: invalid', who: 'admin', payload: { groupId: NEW_GROUP, name: 42 }, expect: 'invalid' },
]);
