// The one rule of silence (src/shared/ops/rules.ts): every operation of a member is refused
// `silenced` before its own rule runs, but for the few a silenced member keeps (reading, their own
// keeping, removing what they wrote). A new operation is refused unless its definition says so.
import { describe, expect, it } from 'vitest';
import { OpRefusal, type OpContext } from '../../../../src/shared/ops/define';
import { OPERATIONS } from '../../../../src/shared/ops/registry';
import { runOp, silenceRefuses, UPLOAD } from '../../../../src/shared/ops/rules';
import type { OpStore } from '../../../../src/shared/ops/store';

/** A store that says the member is silenced, and fails on anything else an operation would read or write. */
const silencedStore = new Proxy({} as OpStore, {
  get: (_target, name) => (name === 'isSilenced' ? async () => true : () => Promise.reject(new Error(`the run reached ${String(name)}`))),
});
const context: OpContext = { id: '00000000-0000-4000-8000-000000000000', now: 0, about: () => undefined };

describe('the one rule of silence', () => {
  it('refuses every member operation `silenced` before it runs, but view, save, setTheme, readNotifications, deletions and following (follow, readPost, setAutoWatch)', async () => {
    const kept: string[] = [];
    for (const definition of OPERATIONS.filter((each) => each.who === 'member')) {
      const outcome = await runOp(definition, silencedStore, { email: 'silenced@example.com', role: 'user' }, {}, context).then(
        () => 'ran',
        (error: unknown) => (error instanceof OpRefusal ? error.code : 'ran'),
      );
      if (outcome === 'silenced') continue;
      kept.push(definition.type);
    }
    expect(kept.sort()).toEqual([
      'deletePost',
      'deleteReply',
      'follow',
      'leaveConversation',
      'readMessages',
      'readNotifications',
      'readPost',
      'save',
      'setAutoWatch',
      'setTheme',
      'view',
    ]);
  });

  it('refuses an upload, and never asks of staff operations', () => {
    expect(silenceRefuses(UPLOAD, true)).toBe(true);
    expect(silenceRefuses(UPLOAD, false)).toBe(false);
    for (const definition of OPERATIONS.filter((each) => each.who === 'admin')) expect(silenceRefuses(definition, true)).toBe(false);
  });
});
