// @vitest-environment happy-dom
// The admin's limits in one form (issue 59, item 7): a window reads as a number and the largest unit
// that divides its seconds, one "Save limits" sends every changed limit in one request, and a number
// that cannot be saved is marked (aria-invalid, described by its sentence) with nothing sent.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastContext } from '../../../../src/components/toast/toast-context';
import { LimitsPanel } from '../../../../src/features/admin/limits-panel';
import { draftOf, per, ruleOf, secondsOf, windowOf } from '../../../../src/features/admin/limit-window';
import type { LimitsAnswer } from '../../../../src/sync/api';

const admin = vi.hoisted(() => ({ readLimits: vi.fn(), setLimits: vi.fn() }));
vi.mock('../../../../src/sync/admin', () => admin);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('a limit window in seconds ↔ a number and a unit', () => {
  it('shows the largest unit that divides the seconds exactly, and converts back', () => {
    expect(windowOf(86_400)).toEqual({ value: 1, unit: 'days' });
    expect(windowOf(172_800)).toEqual({ value: 2, unit: 'days' });
    expect(windowOf(5400)).toEqual({ value: 90, unit: 'minutes' });
    expect(windowOf(7200)).toEqual({ value: 2, unit: 'hours' });
    expect(windowOf(15)).toEqual({ value: 15, unit: 'seconds' });
    expect(secondsOf(3, 'days')).toBe(259_200);
    expect(secondsOf(90, 'minutes')).toBe(5400);
    for (const seconds of [1, 15, 60, 120, 3600, 5400, 86_400, 2_592_000]) {
      const { value, unit } = windowOf(seconds);
      expect(secondsOf(value, unit)).toBe(seconds);
    }
    expect(per(3, 86_400)).toBe('3 per day');
    expect(per(1, 120)).toBe('1 per 2 minutes');
  });

  it('a draft that cannot be saved has a sentence for each field; a good one is its rule', () => {
    const rule = { count: 20, seconds: 86_400, firstDayCount: 3, firstDaySeconds: 3600 };
    expect(ruleOf(draftOf(rule))).toEqual({ rule });
    expect(ruleOf({ ...draftOf(rule), count: '-1', value: '0', firstDayValue: '31', firstDayUnit: 'days' })).toEqual({
      problems: {
        count: 'Enter a whole number from 0 to 1,000,000.',
        value: 'Enter a whole number of at least 1.',
        firstDayValue: 'Choose a window of 30 days or less.',
      },
    });
  });
});

const ANSWER: LimitsAnswer = {
  limits: {
    posts_per_day: { count: 20, seconds: 86_400, firstDayCount: 3, firstDaySeconds: 86_400 },
    seconds_between_posts: { count: 1, seconds: 15, firstDayCount: 1, firstDaySeconds: 120 },
    likes_per_day: { count: 50, seconds: 86_400, firstDayCount: 50, firstDaySeconds: 86_400 },
  },
  defaults: {},
};

async function panel() {
  admin.readLimits.mockResolvedValue(ANSWER);
  const toast = vi.fn();
  render(
    <ToastContext.Provider value={toast}>
      <LimitsPanel />
    </ToastContext.Provider>,
  );
  await screen.findByRole('button', { name: 'Save limits' });
  return toast;
}
const limit = (name: string) => within(screen.getByRole('group', { name }));

describe('the limits form', () => {
  it('shows each window in its largest unit, and one Save sends every changed limit in one request', async () => {
    const toast = await panel();
    expect(screen.getAllByRole('button', { name: /save/i })).toHaveLength(1);
    expect((limit('New posts').getByLabelText('Per') as HTMLInputElement).value).toBe('1');
    expect((limit('New posts').getByLabelText('Unit') as HTMLSelectElement).value).toBe('days');
    expect((limit('Between two new posts').getByLabelText('First day per') as HTMLInputElement).value).toBe('2');
    expect((limit('Between two new posts').getByLabelText('First day unit') as HTMLSelectElement).value).toBe('minutes');

    fireEvent.change(limit('New posts').getByLabelText('Count'), { target: { value: '10' } });
    fireEvent.change(limit('New posts').getByLabelText('Unit'), { target: { value: 'hours' } });
    fireEvent.change(limit('Likes').getByLabelText('First day count'), { target: { value: '5' } });
    const saved = { ...ANSWER, limits: { ...ANSWER.limits } };
    admin.setLimits.mockResolvedValue(saved);
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(toast).toHaveBeenCalled());
    expect(admin.setLimits).toHaveBeenCalledTimes(1);
    expect(admin.setLimits.mock.calls[0]![0]).toEqual({
      posts_per_day: { count: 10, seconds: 3600, firstDayCount: 3, firstDaySeconds: 86_400 },
      likes_per_day: { count: 50, seconds: 86_400, firstDayCount: 5, firstDaySeconds: 86_400 },
    });
    expect(toast.mock.calls[0]![0]).toMatchObject({ title: '2 limits saved' });
  });

  it('a number that cannot be saved is marked and described by its sentence, takes the focus, and a toast says so; nothing is sent', async () => {
    const toast = await panel();
    const count = limit('Likes').getByLabelText('Count');
    fireEvent.change(count, { target: { value: '2.5' } });
    fireEvent.change(limit('New posts').getByLabelText('Per'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(count.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(count.getAttribute('aria-describedby')!)?.textContent).toBe('Enter a whole number from 0 to 1,000,000.');
    const window = limit('New posts').getByLabelText('Per');
    expect(window.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(window.getAttribute('aria-describedby')!)?.textContent).toBe('Enter a whole number of at least 1.');
    expect(limit('Likes').getByLabelText('First day count').hasAttribute('aria-invalid')).toBe(false);
    // The first marked field in the form (New posts comes before Likes) has the focus: the button may be far below it.
    await waitFor(() => expect(document.activeElement).toBe(window));
    expect(toast.mock.calls[0]![0]).toMatchObject({ title: 'Limits not saved', variant: 'error' });
    expect(admin.setLimits).not.toHaveBeenCalled();
  });
});
