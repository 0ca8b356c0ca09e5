// @vitest-environment happy-dom
// A burst of changes on the forum (a member's 250 likes in a row, other tabs' writes) costs the page
// a few snapshots, not one a change: the snapshot is taken at most once a second (SNAPSHOT_GAP_MS),
// the state after the last change included, and the other pages' snapshots are removed while the
// burst goes on by at most one removal at a time, plus one after it for the changes it did not see.
// Storing is stood in for; the end-to-end tests cover the cache and the cookie.
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const stored = vi.hoisted(() => ({
  saves: [] as string[],
  removals: 0,
  finishRemoval: [] as (() => void)[],
}));

vi.mock('../../../src/db/storage/forum-snapshot', () => ({
  clearForumSnapshot: vi.fn(),
  dropForeignSnapshot: vi.fn(async () => undefined),
  dropSnapshot: vi.fn(async () => undefined),
  dropSnapshotsBut: vi.fn(
    () =>
      new Promise<void>((resolve) => {
        stored.removals += 1;
        stored.finishRemoval.push(resolve);
      }),
  ),
  saveSnapshot: vi.fn(async (_url: string, snapshot: { html: string }) => {
    stored.saves.push(snapshot.html);
  }),
  snapshotGeneration: () => 0,
}));
vi.mock('../../../src/db/members/session', () => ({
  readSession: () => ({ email: 'jane.doe@example.com', name: 'Jane Doe', role: 'user' }),
  readStoredSession: () => ({ email: 'jane.doe@example.com', name: 'Jane Doe', role: 'user' }),
}));

const { keepForumSnapshotFresh, SNAPSHOT_GAP_MS, useSnapshotPage } = await import('../../../src/boot/forum-snapshot-app');
const { emitLocalChange } = await import('../../../src/db/storage/changes');

function Forum({ likes }: { likes: number }) {
  useSnapshotPage(true, true, likes);
  return (
    <article>
      <h3>Everyone likes this</h3>
      <span>{likes} likes</span>
    </article>
  );
}

beforeEach(() => {
  vi.useFakeTimers();
  // As in a browser between the likes' transactions: idle comes within a millisecond.
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => setTimeout(callback, 1));
  vi.stubGlobal('cancelIdleCallback', (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle));
  window.history.replaceState(null, '', '/forum');
  stored.saves.length = 0;
  stored.removals = 0;
  stored.finishRemoval.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets the promises settle (the start-up check before each save). */
const settle = () => act(async () => undefined);

describe('a burst of changes on the forum', () => {
  it('takes its snapshot a few times, the last after the last change', async () => {
    const stop = keepForumSnapshotFresh();
    const root = document.createElement('div');
    root.id = 'root';
    document.body.append(root);
    const view = render(<Forum likes={0} />, { container: root });
    await act(async () => vi.advanceTimersByTime(300));
    await settle();
    expect(stored.saves).toEqual([expect.stringContaining('0 likes')]);

    // 250 likes, one every 12 ms (3 s): each a committed change and new rows.
    for (let like = 1; like <= 250; like += 1) {
      emitLocalChange('op:like');
      view.rerender(<Forum likes={like} />);
      await act(async () => vi.advanceTimersByTime(12));
    }
    await act(async () => vi.advanceTimersByTime(SNAPSHOT_GAP_MS + 300));
    await settle();
    expect(stored.saves.length).toBeGreaterThan(1);
    expect(stored.saves.length).toBeLessThanOrEqual(6);
    expect(stored.saves.at(-1)).toContain('250 likes');

    // The removals of the other pages' snapshots: one under way at a time, one more after it.
    expect(stored.removals).toBe(1);
    stored.finishRemoval.shift()!();
    await settle();
    expect(stored.removals).toBe(2);
    stored.finishRemoval.shift()!();
    await settle();
    expect(stored.removals).toBe(2);

    view.unmount();
    root.remove();
    stop();
  });
});
