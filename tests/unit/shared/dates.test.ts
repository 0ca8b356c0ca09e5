// Dates in one format in the reader's time zone, and "until a day" through that day (issue 59, item 7):
// the admin's badge and the member's sentence read a suspension alike; it ends at the picked day's end.
import { describe, expect, it } from 'vitest';
import { dayOf, endOfDay, formatDay, formatDayTime } from '../../../src/shared/dates';
import { suspensionMessage } from '../../../src/shared/errors';
import { formatAge, formatFullDate } from '../../../src/lib/format';

const AT = Date.UTC(2026, 11, 9, 15, 30);

describe('the one date format', () => {
  it('reads "9 Dec 2026" and "9 Dec 2026, 15:30" (here in UTC), never "Dec 9, 2026, 12:00 AM"', () => {
    expect(formatDay(AT, 'UTC')).toBe('9 Dec 2026');
    expect(formatDayTime(AT, 'UTC')).toBe('9 Dec 2026, 15:30');
    expect(formatDayTime(AT, 'Asia/Tokyo')).toBe('10 Dec 2026, 00:30');
  });

  it('is the same on the admin’s screens and in the member’s sentence (the reader’s zone, no "UTC")', () => {
    expect(formatFullDate(AT)).toBe(formatDayTime(AT));
    expect(formatAge(AT, AT + 60 * 24 * 60 * 60 * 1000)).toBe(formatDay(AT));
    expect(suspensionMessage(AT, 'Spam.')).toBe(`Your account is suspended until ${formatFullDate(AT)}. Reason: Spam.`);
    expect(suspensionMessage(AT, null, 'UTC')).toBe('Your account is suspended until 9 Dec 2026, 15:30 UTC.');
  });
});

describe('the end of a picked day', () => {
  it('is 23:59:59.999 local time of that day, so a suspension lasts through it', () => {
    const end = new Date(endOfDay('2026-12-09'));
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes(), end.getMilliseconds()]).toEqual([
      2026, 11, 9, 23, 59, 999,
    ]);
    expect(dayOf(end)).toBe('2026-12-09');
    expect(endOfDay('2026-12-09') + 1).toBe(new Date(2026, 11, 10).getTime());
  });

  it('is NaN for anything that is not a day', () => {
    for (const text of ['', '2026-02-30', '9 Dec 2026', '2026-13-01']) expect(endOfDay(text)).toBeNaN();
  });
});
