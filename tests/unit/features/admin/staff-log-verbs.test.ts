// Every action the server writes in the staff log reads as words on /admin/log, never as its
// internal name (the admin's reset links, issue 59, were shown as "copyResetLink").
import { describe, expect, it } from 'vitest';
import { verbOf } from '../../../../src/features/admin/staff-log';

/** What the server logs (server/db/staff/staff-log.ts, the limits and account routes). */
const LOGGED = [
  'approve',
  'reject',
  'hidePost',
  'hideReply',
  'restoreReply',
  'dismissFlags',
  'suspendMember',
  'silenceMember',
  'deleteSpammer',
  'deletePost',
  'deleteReply',
  'setLimit',
  'copyResetLink',
  'sendResetLink',
];

describe('the staff log’s verbs', () => {
  it('give every logged action words of its own', () => {
    const verbs = LOGGED.map((action) => verbOf({ action, detail: null }));
    for (const [index, verb] of verbs.entries()) {
      expect(verb, LOGGED[index]).toMatch(/^[a-z][a-z ]+$/);
      expect(verb, LOGGED[index]).not.toBe('acted on');
    }
    expect(new Set(verbs).size).toBe(LOGGED.length);
    expect(verbOf({ action: 'sendResetLink', detail: null })).toBe('emailed a password reset link to');
    expect(verbOf({ action: 'copyResetLink', detail: null })).toBe('made a password reset link for');
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
