// @vitest-environment happy-dom
// Scroll memory (src/app/scroll-memory.tsx) as the page is left: the positions the scroll events
// recorded are written to the session at `pagehide` without reading the layout there (a read of
// window.scrollY forced a style and layout of the whole page being left: 20 ms of a /forum
// reopen in the outside probe's trace, issue 64, item 1).
import { act, cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScrollMemory } from '../../../src/app/scroll-memory';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

/** window.scrollY as `y`, with a count of its reads. */
function scrolledTo(y: number) {
  return vi.spyOn(window, 'scrollY', 'get').mockReturnValue(y);
}

describe('ScrollMemory at pagehide', () => {
  it('writes the position the scroll events recorded, without reading the layout', () => {
    render(
      <MemoryRouter initialEntries={['/forum']}>
        <ScrollMemory />
      </MemoryRouter>,
    );
    const read = scrolledTo(640);
    act(() => void window.dispatchEvent(new Event('scroll')));
    expect(read).toHaveBeenCalledTimes(1);

    read.mockClear();
    act(() => void window.dispatchEvent(new Event('pagehide')));

    expect(read).not.toHaveBeenCalled();
    expect(JSON.parse(sessionStorage.getItem('insight-scroll') ?? '{}')).toEqual({ 'default /forum': 640 });
  });

  it('writes nothing for an entry that was never scrolled (it then opens at its top)', () => {
    render(
      <MemoryRouter initialEntries={['/forum']}>
        <ScrollMemory />
      </MemoryRouter>,
    );
    const read = scrolledTo(0);
    act(() => void window.dispatchEvent(new Event('pagehide')));

    expect(read).not.toHaveBeenCalled();
    expect(JSON.parse(sessionStorage.getItem('insight-scroll') ?? '{}')).toEqual({});
  });
});
