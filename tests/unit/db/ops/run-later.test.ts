// @vitest-environment happy-dom
// The operations' runner loads at the first operation, or when the member first reaches for a button
// (src/db/ops/run-later.ts): not for a pointer over text, once only, and never after stop().
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRunner, preloadRunnerOnIntent, preloadRunnerUncached } from '../../../../src/db/ops/run-later';

afterEach(() => {
  document.body.innerHTML = '';
});

const page = () => {
  document.body.innerHTML =
    '<p id="text">Words</p><button type="button"><span id="label">Like</span></button><a id="link" href="#">A link</a>';
  const at = (id: string) => document.getElementById(id)!;
  return { text: at('text'), label: at('label'), button: document.querySelector('button')!, link: at('link') };
};

describe('preloadRunnerOnIntent', () => {
  it('loads the runner when a pointer comes over a button (through its label), once', () => {
    const { text, label, button } = page();
    const load = vi.fn(() => Promise.resolve());
    const stop = preloadRunnerOnIntent(load);
    text.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(load).not.toHaveBeenCalled();
    label.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(load).toHaveBeenCalledTimes(1);
    button.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    button.dispatchEvent(new Event('touchstart', { bubbles: true }));
    expect(load).toHaveBeenCalledTimes(1);
    stop();
  });

  it('loads it when a button gets focus or a finger, not a link', () => {
    const { link, button } = page();
    const load = vi.fn(() => Promise.resolve());
    const stop = preloadRunnerOnIntent(load);
    link.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(load).not.toHaveBeenCalled();
    button.dispatchEvent(new Event('touchstart', { bubbles: true }));
    expect(load).toHaveBeenCalledTimes(1);
    stop();
  });

  it('does nothing once stopped, and a failed load is not an unhandled rejection', async () => {
    const { button } = page();
    const load = vi.fn(() => Promise.reject(new Error('offline')));
    preloadRunnerOnIntent(load)();
    button.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(load).not.toHaveBeenCalled();
    const stop = preloadRunnerOnIntent(load);
    button.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(load).toHaveBeenCalledTimes(1);
    await expect(load.mock.results[0]!.value).rejects.toThrow('offline');
    stop();
  });

  it('loads it at once where no service worker holds the files (offline work must not wait for one), else not', () => {
    const load = vi.fn(() => Promise.resolve());
    preloadRunnerUncached(load, () => true);
    expect(load).not.toHaveBeenCalled();
    preloadRunnerUncached(load, () => false);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads the module that runs operations', async () => {
    const runner = await loadRunner();
    expect(typeof runner.runOperation).toBe('function');
    expect(typeof runner.applyOperation).toBe('function');
  });
});
