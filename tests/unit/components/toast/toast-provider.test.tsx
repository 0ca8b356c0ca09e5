// @vitest-environment happy-dom
// The one toast at a time (product.md §4): a toast's own timer or button dismisses that toast only.
// A timer that fires after a newer toast replaced its own, but before the newer one is on screen (the
// older timer is cleared only then), left the page with no toast: the refusal's toast after a bulk
// review's Undo deadline, on a loaded machine (tests/e2e-sync/moderation.spec.ts, a CI run of stop 78).
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToast, useWithdrawToast, type ShowToast, type WithdrawToast } from '../../../../src/components/toast/toast-context';
import { TOAST_DURATION_MS, ToastProvider } from '../../../../src/components/toast/toast-provider';

let show: ShowToast = () => undefined;
let withdraw: WithdrawToast = () => undefined;

function Catch() {
  show = useToast();
  withdraw = useWithdrawToast();
  return null;
}

beforeEach(() => {
  vi.useFakeTimers();
  render(
    <ToastProvider>
      <Catch />
    </ToastProvider>,
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const shownTitle = () => screen.getByRole('status').textContent ?? '';

describe('ToastProvider', () => {
  it('keeps a new toast when the toast it replaced reaches its deadline before the new one is on screen', () => {
    act(() => show({ title: 'Approved 3 posts', until: Date.now() + 1_000 }));
    expect(shownTitle()).toContain('Approved 3 posts');
    act(() => {
      show({ title: 'Already reviewed' });
      // The older toast's deadline, before React puts the new toast on screen.
      vi.advanceTimersByTime(1_000);
    });
    expect(shownTitle()).toContain('Already reviewed');
  });

  it('still leaves at its own time, and its Dismiss button takes only itself away', () => {
    act(() => show({ title: 'Saved' }));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(shownTitle()).toBe('');
    act(() => show({ title: 'First' }));
    const firstDismiss = screen.getByRole('button', { name: 'Dismiss notification' });
    act(() => {
      show({ title: 'Second' });
      // A press on the older toast's button that lands after the newer toast was asked for.
      firstDismiss.click();
    });
    expect(shownTitle()).toContain('Second');
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).click());
    expect(shownTitle()).toBe('');
  });

  it('a withdrawn toast leaves only when the one who withdraws it showed it (a form’s next try)', () => {
    act(() => show({ title: 'Please fill all fields.', from: 'sign-in-form' }));
    act(() => withdraw('another-form'));
    expect(shownTitle()).toContain('Please fill all fields.');
    act(() => withdraw('sign-in-form'));
    expect(shownTitle()).toBe('');
    // A toast from elsewhere (the sync's news) is not the form's to take back.
    act(() => show({ title: 'Back online' }));
    act(() => withdraw('sign-in-form'));
    expect(shownTitle()).toContain('Back online');
  });
});
