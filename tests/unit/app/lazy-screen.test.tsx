// @vitest-environment happy-dom
// A screen's code loaded on first use (src/app/lazy-screen.tsx): once preloaded it renders in the
// first frame, with no Suspense fallback (React keeps a fallback up for 300 ms once shown); loaded
// while on screen, it shows the fallback, then the screen, which its later renders never remount.
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, Suspense, useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyScreen, RETRY_AFTER_MS } from '../../../src/app/lazy-screen';
import { deferred } from '../deferred';

afterEach(() => cleanup());

const fallback = vi.fn(() => <p>Loading...</p>);
function Fallback() {
  return fallback();
}

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p>Failed to load</p> : this.props.children;
  }
}

let mounts = 0;
function Forum() {
  const [mountedAs] = useState(() => (mounts += 1));
  return <h1>Community Forum (mount {mountedAs})</h1>;
}

describe('a lazily loaded screen', () => {
  it('renders in the first frame once preloaded, without its fallback', async () => {
    fallback.mockClear();
    const load = vi.fn(async () => Forum);
    const forum = lazyScreen('/forum', load);
    await forum.load();
    await forum.load();
    expect(load).toHaveBeenCalledTimes(1);
    act(() => {
      render(
        <Suspense fallback={<Fallback />}>
          <forum.Component />
        </Suspense>,
      );
    });
    expect(screen.getByRole('heading').textContent).toMatch(/^Community Forum/);
    expect(fallback).not.toHaveBeenCalled();
  });

  it('shows the fallback while its code loads, then the screen, never remounted by a later render', async () => {
    fallback.mockClear();
    const code = deferred<typeof Forum>();
    const forum = lazyScreen('/forum', () => code.promise);
    const page = (extra: string) => (
      <Suspense fallback={<Fallback />}>
        <forum.Component />
        <p>{extra}</p>
      </Suspense>
    );
    const { rerender } = render(page('first'));
    expect(screen.getByText('Loading...')).toBeTruthy();
    await act(async () => code.resolve(Forum));
    const shown = screen.getByRole('heading').textContent;
    rerender(page('second'));
    expect(screen.getByText('second')).toBeTruthy();
    expect(screen.getByRole('heading').textContent).toBe(shown);
  });

  it('loads again on its next mount after a failed load (a chunk missing after a deploy)', async () => {
    // The chunk is missing until the network (or the deploy) is back.
    let missing = true;
    const load = vi.fn(async () => {
      if (missing) throw new Error('chunk missing');
      return Forum;
    });
    const forum = lazyScreen('/forum', load);
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the caught failure
    const failed = render(
      <Boundary>
        <Suspense fallback={<Fallback />}>
          <forum.Component />
        </Suspense>
      </Boundary>,
    );
    expect(await screen.findByText('Failed to load')).toBeTruthy();
    // One load: React's own renders of the failed screen got the failure, not a load each.
    expect(load).toHaveBeenCalledTimes(1);
    failed.unmount();
    missing = false;
    // The next visit, a moment later.
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + RETRY_AFTER_MS);
    render(
      <Suspense fallback={<Fallback />}>
        <forum.Component />
      </Suspense>,
    );
    expect((await screen.findByRole('heading')).textContent).toMatch(/^Community Forum/);
    expect(load).toHaveBeenCalledTimes(2);
    vi.restoreAllMocks();
  });
});
