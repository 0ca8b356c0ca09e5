// @vitest-environment happy-dom
import packaged from 'dom-helpers/transitionEnd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import transitionEnd from '../../../src/lib/transition-end';

// react-bootstrap waits for the end of a dialog's or a collapse's transition through
// transitionEnd, and ignores the events of the element's children. When the element's own event
// never comes, the one transitionEnd sends after the duration is what ends the exit.

function dialog() {
  const element = document.createElement('div');
  const child = document.createElement('div');
  element.append(child);
  document.body.append(element);
  const own: Event[] = [];
  const handler = (event: Event) => {
    if (event.target === element) own.push(event);
  };
  return { element, child, own, handler };
}

const bubbleFrom = (node: Element) => node.dispatchEvent(new Event('transitionend', { bubbles: true }));

describe('transitionEnd (the fixed copy the build uses)', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.replaceChildren();
  });

  it("sends the element's end after the duration although a child's end bubbled up first", () => {
    vi.useFakeTimers();
    const { element, child, own, handler } = dialog();
    transitionEnd(element, handler, 150);
    bubbleFrom(child);
    vi.advanceTimersByTime(154);
    expect(own).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(own).toHaveLength(1);
  });

  it("sends nothing more once the element's own transition ended", () => {
    vi.useFakeTimers();
    const { element, own, handler } = dialog();
    transitionEnd(element, handler, 150);
    bubbleFrom(element);
    vi.advanceTimersByTime(1_000);
    expect(own).toHaveLength(1);
  });

  it('stops listening and sending when its returned function is called', () => {
    vi.useFakeTimers();
    const { element, own, handler } = dialog();
    const stop = transitionEnd(element, handler, 150);
    stop();
    vi.advanceTimersByTime(1_000);
    bubbleFrom(element);
    expect(own).toHaveLength(0);
  });

  it("reads the duration from the element's style when none is given", () => {
    vi.useFakeTimers();
    const { element, own, handler } = dialog();
    element.style.transitionDuration = '300ms';
    transitionEnd(element, handler);
    vi.advanceTimersByTime(304);
    expect(own).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(own).toHaveLength(1);
  });

  // The reason for the copy: when this fails, dom-helpers has released the fix (its PR #206) and
  // the alias in scripts/dom-helpers-fix.mjs can go.
  it("is needed: dom-helpers' own version never ends after a child's end bubbled up", () => {
    vi.useFakeTimers();
    const { element, child, own, handler } = dialog();
    packaged(element, handler, 150);
    bubbleFrom(child);
    vi.advanceTimersByTime(1_000);
    expect(own).toHaveLength(0);
  });
});
