// The forum's first frame's mark (issue 64, item 2): one member's, taken by their /forum as often as
// it renders until it ends; what waits for it (the session's database copy) runs once it has ended.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  afterFirstFrame,
  endFirstFrame,
  firstFramePending,
  firstFrameShown,
  markFirstFrame,
  onFirstFrameEnd,
  takeFirstFrame,
} from '../../../../src/db/storage/first-frame';

beforeEach(() => endFirstFrame());

describe('the first frame’s mark', () => {
  it('is the marked member’s, the same answer at every render until it ends, then none', () => {
    markFirstFrame('ana@example.com', 1_000);
    expect(firstFramePending()).toBe(true);
    expect(firstFrameShown()).toBe(false);
    expect(takeFirstFrame('ben@example.com')).toBeUndefined();
    expect(takeFirstFrame('ana@example.com')).toBe(1_000);
    expect(takeFirstFrame('ana@example.com')).toBe(1_000);
    expect(firstFrameShown()).toBe(true);
    let ended = 0;
    const stop = onFirstFrameEnd(() => (ended += 1));
    endFirstFrame();
    endFirstFrame();
    stop();
    expect(ended).toBe(1);
    expect(takeFirstFrame('ana@example.com')).toBeUndefined();
    expect(firstFramePending()).toBe(false);
  });

  it('what waits for it runs at once without one, or once it has ended (taken or not)', () => {
    const ran: string[] = [];
    afterFirstFrame(() => ran.push('now'));
    expect(ran).toEqual(['now']);
    markFirstFrame('ana@example.com');
    afterFirstFrame(() => ran.push('after'));
    expect(ran).toEqual(['now']);
    endFirstFrame();
    expect(ran).toEqual(['now', 'after']);
    endFirstFrame();
    expect(ran).toEqual(['now', 'after']);
  });
});
