// The ids an operation names travel as the devices make them: UUIDs in lower case. Ids are compared
// as written (an index, a join), so one in upper case would be another row for the same UUID (a
// third attack test made a group so, then a category tied to its lower-case twin).
import { describe, expect, it } from 'vitest';
import { opSchema } from '../../../../src/shared/protocol';

const GROUP = '0d000000-0000-4000-8000-0000000000d9';
const MEMBER = '0123456789abcdef';
const op = (fields: Record<string, unknown>) => ({ id: '00000000-0000-4000-8000-000000000001', ...fields });

describe('the ids an operation names', () => {
  it('takes a UUID in lower case and refuses one in upper case', () => {
    for (const [type, field, rest] of [
      ['createGroup', 'groupId', { name: 'Vendors' }],
      ['addGroupMember', 'groupId', { memberId: MEMBER }],
      ['dismissMessageFlags', 'messageId', {}],
      ['hideReply', 'replyId', {}],
    ] as const) {
      expect(opSchema.safeParse(op({ type, [field]: GROUP, ...rest })).success, type).toBe(true);
      expect(opSchema.safeParse(op({ type, [field]: GROUP.toUpperCase(), ...rest })).success, type).toBe(false);
    }
  });
});
