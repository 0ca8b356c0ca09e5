// Every action the server writes in the staff log reads as words on /admin/log, never as its
// internal name (the admin's reset links, issue 59, were shown as "copyResetLink"). What the server
// logs is what the operations' definitions say are staff actions (`staff`) and the few others
// (src/shared/staff-actions.ts; the server's StaffEntry takes nothing else).
import { describe, expect, it } from 'vitest';
import { verbOf } from '../../../../src/features/admin/staff-log';
import { OPERATIONS } from '../../../../src/shared/ops/registry';
import { LOGGED_ACTIONS } from '../../../../src/shared/staff-actions';

const LOGGED = LOGGED_ACTIONS;

describe('the staff log’s verbs', () => {
  it('give every logged action words of its own', () => {
    const verbs = LOGGED.map((action) => verbOf({ action, detail: null }));
    for (const [index, verb] of verbs.entries()) {
      expect(verb, LOGGED[index]).toMatch(/^[a-z][a-z “”-]+$/);
      expect(verb, LOGGED[index]).not.toBe('acted on');
    }
    expect(new Set(verbs).size).toBe(LOGGED.length);
    expect(verbOf({ action: 'sendResetLink', detail: null })).toBe('emailed a password reset link to');
    expect(verbOf({ action: 'copyResetLink', detail: null })).toBe('made a password reset link for');
  });

  it('are on the definitions: every admin operation, and an admin’s deletion of what someone else wrote', () => {
    // Every operation only admins may send is a staff action.
    for (const definition of OPERATIONS) if (definition.who === 'admin') expect(definition.staff, definition.type).toBeDefined();
    // A member's own deletion is not: only an admin's of what someone else wrote.
    expect(
      OPERATIONS.filter((definition) => definition.staff?.when === 'othersWriting')
        .map((definition) => definition.type)
        .sort(),
    ).toEqual(['deletePost', 'deleteReply']);
  });

  it('say when a suspension is lifted and a member unsilenced', () => {
    expect(verbOf({ action: 'suspendMember', detail: { until: null } })).toBe('lifted the suspension of');
    expect(verbOf({ action: 'suspendMember', detail: { until: 1 } })).toBe('suspended');
    expect(verbOf({ action: 'silenceMember', detail: { silenced: false } })).toBe('unsilenced');
  });

  it('never show an unknown action’s name', () => {
    expect(verbOf({ action: 'someFutureAction', detail: null })).toBe('acted on');
  });
});
