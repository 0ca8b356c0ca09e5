// Dates as people read them (issue 59, item 7): one format on every screen, the admin's and the
// member's alike ("9 Dec 2026", "9 Dec 2026, 23:59"), in the reader's time zone unless one is
// given (the server's sentences, which it can only write in UTC, say so). And the end of a day
// picked in a date field: a suspension or a silence "until 9 Dec" lasts through that day.

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(withTime: boolean, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${withTime}:${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', ...(withTime ? { timeStyle: 'short' } : {}), timeZone });
    formats.set(key, format);
  }
  return format;
}

/** The day of `ms`: "9 Dec 2026". */
export function formatDay(ms: number, timeZone?: string): string {
  return formatFor(false, timeZone).format(ms);
}

/** The day and time of `ms`: "9 Dec 2026, 23:59". */
export function formatDayTime(ms: number, timeZone?: string): string {
  return formatFor(true, timeZone).format(ms);
}

/** A day as a date field writes it (YYYY-MM-DD) of `date` in local time. */
export function dayOf(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/**
 * The last moment (23:59:59.999, local time) of a YYYY-MM-DD day, in ms, NaN for anything else:
 * what "until" a picked day means, sent as an instant so every device and the server agree.
 */
export function endOfDay(day: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(day);
  if (!match) return Number.NaN;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const end = new Date(year, month - 1, date, 23, 59, 59, 999);
  return end.getMonth() === month - 1 ? end.getTime() : Number.NaN;
}
