import { describe, expect, it } from 'vitest';
import { nextSystemNotifications } from '../../../src/lib/system-notifications';
import type { Notification } from '../../../src/shared/moderation';

const note = (id: string, createdAt: number, readAt: number | null = null): Notification => ({
  id,
  kind: 'rejected',
  postId: 1,
  replyId: null,
  actor: null,
  postTitle: 'A post',
  reason: 'Off topic',
  createdAt,
  readAt,
});

describe('which notifications become system notifications', () => {
  it('never shows what was there at the first look, hidden or not', () => {
    const step = nextSystemNotifications(null, [note('a', 1), note('b', 2)], true);
    expect(step.show).toEqual([]);
    expect([...step.seen].sort()).toEqual(['a', 'b']);
  });

  it('shows new unread ones that arrive while the page is hidden, oldest first', () => {
    const first = nextSystemNotifications(null, [note('a', 1)], false);
    const step = nextSystemNotifications(first.seen, [note('c', 3), note('b', 2), note('r', 4, 5), note('a', 1)], true);
    expect(step.show.map((n) => n.id)).toEqual(['b', 'c']);
  });

  it('shows nothing while the page is visible, and never later for those seen then', () => {
    const first = nextSystemNotifications(null, [], false);
    const visible = nextSystemNotifications(first.seen, [note('b', 2)], false);
    expect(visible.show).toEqual([]);
    const hidden = nextSystemNotifications(visible.seen, [note('b', 2)], true);
    expect(hidden.show).toEqual([]);
  });

  it('never shows old unread ones that a pull from the start brings after an empty first look', () => {
    const first = nextSystemNotifications(null, [], true, 100);
    const step = nextSystemNotifications(first.seen, [note('old', 20), note('new', 150)], true, 100);
    expect(step.show.map((n) => n.id)).toEqual(['new']);
  });
});
