// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineBadge } from '../../../../src/features/pwa/offline-badge';

// What the browser says about the network, as a page reads it: navigator.onLine, and the online
// and offline events when it changes.
function setOnLine(onLine: boolean): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => onLine });
}

function browserSays(onLine: boolean): void {
  act(() => {
    setOnLine(onLine);
    window.dispatchEvent(new Event(onLine ? 'online' : 'offline'));
  });
}

afterEach(() => {
  cleanup();
  setOnLine(true);
});

describe('OfflineBadge (the header on a local-only device)', () => {
  it('a page that opens while the browser is already offline says Offline, with no event to wait for', () => {
    setOnLine(false);
    render(<OfflineBadge />);
    expect(screen.getByRole('status').textContent).toBe('Offline');
  });

  it('follows the browser going offline and back online', () => {
    render(<OfflineBadge />);
    expect(screen.queryByRole('status')).toBeNull();
    browserSays(false);
    expect(screen.getByRole('status').textContent).toBe('Offline');
    browserSays(true);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
