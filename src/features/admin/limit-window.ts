// A limit's window as the admin reads and writes it (issue 59, item 7): a number and a unit (the
// largest that divides the stored seconds exactly: 86400 is "1 day", 5400 "90 minutes"), and back to
// the seconds the server stores. Seconds stay a unit because some defaults are a few seconds (15 s
// between two new posts). The sentences of a number that cannot be saved are here, beside the rules.

import type { LimitRuleShape } from '../../sync/api';

export type WindowUnit = 'seconds' | 'minutes' | 'hours' | 'days';

/** Each unit, its seconds, largest first. */
export const WINDOW_UNITS: readonly { unit: WindowUnit; seconds: number }[] = [
  { unit: 'days', seconds: 86_400 },
  { unit: 'hours', seconds: 3600 },
  { unit: 'minutes', seconds: 60 },
  { unit: 'seconds', seconds: 1 },
];

/** The server's bounds (limitRuleSchema in src/shared/protocol.ts). */
const MAX_COUNT = 1_000_000;
const MAX_WINDOW_SECONDS = 30 * 86_400;

/** `seconds` as a value in the largest unit that divides it exactly. */
export function windowOf(seconds: number): { value: number; unit: WindowUnit } {
  const found = WINDOW_UNITS.find((each) => seconds % each.seconds === 0) ?? WINDOW_UNITS[WINDOW_UNITS.length - 1]!;
  return { value: seconds / found.seconds, unit: found.unit };
}

/** `value` `unit` in seconds. */
export function secondsOf(value: number, unit: WindowUnit): number {
  return value * WINDOW_UNITS.find((each) => each.unit === unit)!.seconds;
}

/** "3 per day", "1 per 2 minutes". */
export function per(count: number, seconds: number): string {
  const { value, unit } = windowOf(seconds);
  return `${count.toLocaleString('en-US')} per ${value === 1 ? unit.slice(0, -1) : `${value} ${unit}`}`;
}

/** One limit as typed: its counts and windows as the text of their fields. */
export interface LimitDraft {
  count: string;
  value: string;
  unit: WindowUnit;
  firstDayCount: string;
  firstDayValue: string;
  firstDayUnit: WindowUnit;
}
export type DraftField = 'count' | 'value' | 'firstDayCount' | 'firstDayValue';

export function draftOf(rule: LimitRuleShape): LimitDraft {
  const window = windowOf(rule.seconds);
  const firstDay = windowOf(rule.firstDaySeconds);
  return {
    count: String(rule.count),
    value: String(window.value),
    unit: window.unit,
    firstDayCount: String(rule.firstDayCount),
    firstDayValue: String(firstDay.value),
    firstDayUnit: firstDay.unit,
  };
}

const WHOLE = /^\d+$/;

function countProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (!WHOLE.test(trimmed) || Number(trimmed) > MAX_COUNT) return 'Enter a whole number from 0 to 1,000,000.';
  return undefined;
}

function windowProblem(text: string, unit: WindowUnit): string | undefined {
  const trimmed = text.trim();
  if (!WHOLE.test(trimmed) || Number(trimmed) < 1) return 'Enter a whole number of at least 1.';
  if (secondsOf(Number(trimmed), unit) > MAX_WINDOW_SECONDS) return 'Choose a window of 30 days or less.';
  return undefined;
}

/** The rule a draft holds, or the sentence of each field that cannot be saved. */
export function ruleOf(draft: LimitDraft): { rule: LimitRuleShape } | { problems: Partial<Record<DraftField, string>> } {
  const problems: Partial<Record<DraftField, string>> = {
    count: countProblem(draft.count),
    value: windowProblem(draft.value, draft.unit),
    firstDayCount: countProblem(draft.firstDayCount),
    firstDayValue: windowProblem(draft.firstDayValue, draft.firstDayUnit),
  };
  for (const key of Object.keys(problems) as DraftField[]) if (problems[key] === undefined) delete problems[key];
  if (Object.keys(problems).length > 0) return { problems };
  return {
    rule: {
      count: Number(draft.count.trim()),
      seconds: secondsOf(Number(draft.value.trim()), draft.unit),
      firstDayCount: Number(draft.firstDayCount.trim()),
      firstDaySeconds: secondsOf(Number(draft.firstDayValue.trim()), draft.firstDayUnit),
    },
  };
}

/** Each limit as the admin reads it. */
export const LIMIT_LABELS: Readonly<Record<string, string>> = {
  posts_per_day: 'New posts',
  seconds_between_posts: 'Between two new posts',
  replies_per_day: 'Replies',
  seconds_between_replies: 'Between two replies',
  likes_per_day: 'Likes',
  flags_per_day: 'Flags',
  votes_per_day: 'Poll votes',
  attachments_per_day: 'Attachments',
  download_megabytes_per_hour: 'Attachment downloads (MB)',
  edits_per_day: 'Edits',
  searches_per_minute: 'Searches',
  pages_per_minute: 'Pages of the forum read from the server',
  pushes_per_10_seconds: 'Sync requests',
  operations_per_minute: 'Changes synced',
  signups_per_hour: 'New accounts from one address',
  renames_per_day: 'Name changes',
  messages_per_day: 'Messages',
};
