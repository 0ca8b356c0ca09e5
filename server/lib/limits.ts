// The limits of a forum open to strangers, per member, modelled on Discourse's defaults (its
// site_settings.yml: 20 new topics a day and 15 s between them, 3 topics and 10 replies in a member's
// first day and 120 s / 30 s between them, 5 s between replies, 50 likes, 20 flags and 30 edits a day,
// 30 searches a minute), 3 renames a day, plus what a sync protocol needs: pushes and operations per window. Admins are
// exempt. Each limit is a token bucket kept in PostgreSQL (rate_buckets) and taken in one statement
// (ie_take, migration 33), so it holds across every instance of the server; a like's limits, and a
// one-like push's own, are taken in the like's group commit (db/ops/like-batch.ts), so they cost it no
// commit of their own. The admin may change each limit (rate_limit_settings,
// read again every few seconds). A flood (too many pushes or operations) is answered 429 with
// Retry-After; one operation over its limit is answered `failed` with `slow_down`, when to try again,
// and the device keeps it and sends it then; one that costs more than its limit ever allows is refused
// (`over_limit`).
import { slowDownMessage } from '../../src/shared/errors';
import type { OpLimit } from '../../src/shared/ops/define';
import type { Sql } from '../db/storage/adapter';
import { refuse } from './http-error';

/** One limit: `count` per `seconds`, and (a member's first day) `firstDayCount` per `firstDaySeconds`. */
export interface LimitRule {
  count: number;
  seconds: number;
  firstDayCount: number;
  firstDaySeconds: number;
}

const DAY = 24 * 60 * 60;

/** The limits, by name, with Discourse's defaults where it has one (see above). */
export const DEFAULT_LIMITS: Record<
  | OpLimit
  | 'attachments_per_day'
  | 'download_megabytes_per_hour'
  | 'searches_per_minute'
  | 'pages_per_minute'
  | 'pushes_per_10_seconds'
  | 'operations_per_minute'
  | 'signups_per_hour',
  LimitRule
> = {
  /** New posts (Discourse's topics). */
  posts_per_day: { count: 20, seconds: DAY, firstDayCount: 3, firstDaySeconds: DAY },
  seconds_between_posts: { count: 1, seconds: 15, firstDayCount: 1, firstDaySeconds: 120 },
  /** Replies: Discourse has no daily cap after the first day; this one only stops a flood. */
  replies_per_day: { count: 1000, seconds: DAY, firstDayCount: 10, firstDaySeconds: DAY },
  seconds_between_replies: { count: 1, seconds: 5, firstDayCount: 1, firstDaySeconds: 30 },
  likes_per_day: { count: 50, seconds: DAY, firstDayCount: 50, firstDaySeconds: DAY },
  flags_per_day: { count: 20, seconds: DAY, firstDayCount: 5, firstDaySeconds: DAY },
  /** Votes in polls (a changed vote counts again): Discourse has none; this one only stops a flood. */
  votes_per_day: { count: 200, seconds: DAY, firstDayCount: 50, firstDaySeconds: DAY },
  /** Files uploaded (a file already uploaded by the member counts again: it is a new request all the same). */
  attachments_per_day: { count: 50, seconds: DAY, firstDayCount: 10, firstDaySeconds: DAY },
  /**
   * Attachments' bytes served to the member, in megabytes (a file costs its size, at least
   * DOWNLOAD_MIN_COST_BYTES, so tiny files cannot be fetched without end): the service worker fetches
   * each file once, so a member reading the forum spends a few megabytes an hour; this only stops a
   * loop fetching the same 10 MB file (Discourse has none; it serves uploads from a CDN).
   */
  download_megabytes_per_hour: { count: 1000, seconds: 3600, firstDayCount: 200, firstDaySeconds: 3600 },
  /** Edits of posts and replies. */
  edits_per_day: { count: 30, seconds: DAY, firstDayCount: 30, firstDaySeconds: DAY },
  searches_per_minute: { count: 30, seconds: 60, firstDayCount: 30, firstDaySeconds: 60 },
  /**
   * Pages of the forum read from the server (GET /api/posts, issue 44, and pulls, GET /api/changes):
   * a new device's window takes about six, a member scrolling past it one per 50 posts, a tab's live
   * stream at most one pull per 2 s (sync/engine.ts); this only stops a loop copying the forum.
   */
  pages_per_minute: { count: 60, seconds: 60, firstDayCount: 60, firstDaySeconds: 60 },
  /** Pushes: 2 a second on average, 20 at once (a device coming back online sends several). */
  pushes_per_10_seconds: { count: 20, seconds: 10, firstDayCount: 20, firstDaySeconds: 10 },
  /** Operations in all pushes: one full push (100) at once, then 2 a second. */
  operations_per_minute: { count: 120, seconds: 60, firstDayCount: 120, firstDaySeconds: 60 },
  /**
   * Create Account from one client address (issue 59; Discourse's max_new_accounts_per_registration_ip
   * is 3): counted per address, not per member (there is none yet).
   */
  signups_per_hour: { count: 3, seconds: 3600, firstDayCount: 3, firstDaySeconds: 3600 },
  /**
   * Changes of a member's display name (issue 59): Discourse lets a member change their username
   * only in their first days; three a day lets a typo be mended twice and stops a name that
   * changes every few seconds to confuse readers (each rename rewrites the author of all they wrote).
   */
  renames_per_day: { count: 3, seconds: DAY, firstDayCount: 3, firstDaySeconds: DAY },
  /**
   * Messages (issue 61), a conversation's first one included: Discourse lets a new member send none
   * until their trust level rises; here one approved post or reply opens them (the operations' rule,
   * `messages_closed`), then 10 on the first day and 100 a day after.
   */
  messages_per_day: { count: 100, seconds: DAY, firstDayCount: 10, firstDaySeconds: DAY },
};

export type LimitName = keyof typeof DEFAULT_LIMITS;
/** What the smallest download costs of download_megabytes_per_hour: 64 KiB. */
export const DOWNLOAD_MIN_COST_BYTES = 64 * 1024;
/** The cost of serving `size` bytes, in download_megabytes_per_hour's megabytes. */
export const downloadCost = (size: number): number => Math.max(size, DOWNLOAD_MIN_COST_BYTES) / (1024 * 1024);
export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as LimitName[];
export type Limits = Record<LimitName, LimitRule>;

// Which limits an operation takes is on its definition (`limits`, `cost`: src/shared/ops/define.ts);
// each is one of these (a name there that is not one here fails the type check).
type OneOf<T extends LimitName> = T;
export type OperationLimitName = OneOf<OpLimit>;

/** An operation or request over a limit: how long until it would be allowed. */
export class SlowDown extends Error {
  override name = 'SlowDown';
  constructor(readonly waitMs: number) {
    super(slowDownMessage(waitMs));
  }
  /** The Retry-After header's seconds. */
  get retryAfter(): number {
    return Math.max(1, Math.ceil(this.waitMs / 1000));
  }
}

/**
 * An operation that costs more than its limit's whole bucket (a like of count 1,000 when a member
 * may like 50 a day): no wait would let it pass, so it is refused (`over_limit`), not held for days.
 * A request's limits (takeForRequest) still answer it as a SlowDown.
 */
export class OverLimit extends SlowDown {
  override name = 'OverLimit';
}

/** Who a limit counts: a member (admins never reach here). */
export interface Limited {
  id: number;
  role: string;
  createdAt?: number;
  /** The bucket's key when it is not the member's (sign-ups count per client address). */
  key?: string;
}

const FIRST_DAY_MS = DAY * 1000;
/** How long an instance keeps the admin's settings before it reads them again. */
const SETTINGS_TTL_MS = 5_000;

/** The limits as the admin set them (and the defaults for the rest), read again at most every few seconds. */
export class LimitSettings {
  private cached?: { at: number; limits: Limits };

  /** `base`: the limits before the admin's changes (DEFAULT_LIMITS; tests that are not about limits relax them). */
  constructor(
    private readonly db: Sql,
    private readonly base: Limits = DEFAULT_LIMITS,
  ) {}

  async current(now = Date.now()): Promise<Limits> {
    if (this.cached && now - this.cached.at < SETTINGS_TTL_MS) return this.cached.limits;
    const rows = await this.db.query<{ name: string; count: number; seconds: number; first_day_count: number; first_day_seconds: number }>(
      'SELECT name, count, seconds, first_day_count, first_day_seconds FROM rate_limit_settings',
    );
    const limits: Limits = { ...this.base };
    for (const row of rows) {
      if (!(LIMIT_NAMES as string[]).includes(row.name)) continue;
      limits[row.name as LimitName] = {
        count: Number(row.count),
        seconds: Number(row.seconds),
        firstDayCount: Number(row.first_day_count),
        firstDaySeconds: Number(row.first_day_seconds),
      };
    }
    this.cached = { at: now, limits };
    return limits;
  }

  /** Stores the admin's change of one limit and forgets the cache here (other instances within seconds). */
  async set(sql: Sql, name: LimitName, rule: LimitRule): Promise<void> {
    await sql.query(
      `INSERT INTO rate_limit_settings (name, count, seconds, first_day_count, first_day_seconds) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (name) DO UPDATE SET count = $2, seconds = $3, first_day_count = $4, first_day_seconds = $5`,
      [name, rule.count, rule.seconds, rule.firstDayCount, rule.firstDaySeconds],
    );
    this.cached = undefined;
  }
}

/** The bucket of `rule` for a member: its capacity and refill rate (tokens per ms), stricter in their first day. */
function bucketOf(rule: LimitRule, member: Limited, now: number): { capacity: number; rate: number } {
  const firstDay = member.createdAt !== undefined && now - member.createdAt < FIRST_DAY_MS;
  const [count, seconds] = firstDay ? [rule.firstDayCount, rule.firstDaySeconds] : [rule.count, rule.seconds];
  return { capacity: count, rate: count / (seconds * 1000) };
}

/** One take of a limit as the database does it (ie_take, migration 33): `cost` tokens of `name` in the bucket `key`. */
export interface Take {
  key: string;
  name: LimitName;
  capacity: number;
  /** Tokens per ms. */
  rate: number;
  cost: number;
  now: number;
}

/**
 * The take of `cost` tokens of the limit `name` for `member` at `now`, or null when nothing is taken
 * (admins are exempt). Throws OverLimit when the cost can never be met.
 */
export function takeOf(limits: Limits, name: LimitName, member: Limited, cost = 1, now = Date.now()): Take | null {
  if (member.role === 'admin' || cost <= 0) return null;
  const { capacity, rate } = bucketOf(limits[name], member, now);
  // A cost above the capacity can never be met (a limit of 0 included): OverLimit, with the wait a full bucket would take.
  if (capacity <= 0 || cost > capacity) throw new OverLimit(capacity <= 0 ? limits[name].seconds * 1000 : cost / rate);
  return { key: member.key ?? `member:${member.id}`, name, capacity, rate, cost, now };
}

/** The SlowDown of `take` refused when its bucket had `have` tokens: the wait until it has enough. */
export const slowDownOf = (take: Take, have: number): SlowDown => new SlowDown(Math.max(1, (take.cost - have) / take.rate));

/** Takes `one` in one statement (so two instances never both take the last token); throws SlowDown with the wait when there are not enough. */
async function takeNow(sql: Sql, one: Take): Promise<void> {
  // Requests read `now` before they wait on the row: a later one may commit first. A bucket never
  // refills backwards (with a wide-open limit, a few ms backwards took a million tokens: Slow down
  // for sign-ups sent at once from one address, whose bucket they share): ie_take.
  const [taken] = await sql.query<{ have: unknown }>(
    'SELECT ie_take($1::text, $2::text, $3::float8, $4::bigint, $5::float8, $6::float8) AS have',
    [one.key, one.name, one.capacity, one.now, one.cost, one.rate],
  );
  if (taken && taken.have !== null && taken.have !== undefined) throw slowDownOf(one, Number(taken.have));
}

/**
 * Takes `cost` tokens of the limit `name` for `member` in one statement (so two instances never both
 * take the last one); throws SlowDown with the wait when there are not enough. Admins are exempt.
 */
export async function take(sql: Sql, limits: Limits, name: LimitName, member: Limited, cost = 1, now = Date.now()): Promise<void> {
  const one = takeOf(limits, name, member, cost, now);
  if (one) await takeNow(sql, one);
}

/** Takes one of each limit `names` (the whole call's first SlowDown wins; call it in a transaction so nothing is kept). */
export async function takeAll(
  sql: Sql,
  limits: Limits,
  names: readonly LimitName[],
  member: Limited,
  cost = 1,
  now = Date.now(),
): Promise<void> {
  for (const name of names) await take(sql, limits, name, member, cost, now);
}

/** A request over a limit: 429 slow_down with Retry-After. */
export const tooOften = (error: SlowDown) => refuse('slow_down', error.message, { 'retry-after': String(error.retryAfter) });

/** Runs `taking`, answering a SlowDown as the request's 429 (tooOften). */
async function forRequest<T>(taking: () => Promise<T> | T): Promise<T> {
  try {
    return await taking();
  } catch (error) {
    if (error instanceof SlowDown) throw tooOften(error);
    throw error;
  }
}

/** take() for a whole request (a push, a search): over the limit is 429 slow_down with Retry-After. */
export async function takeForRequest(sql: Sql, limits: Limits, name: LimitName, member: Limited, cost = 1): Promise<void> {
  await forRequest(() => take(sql, limits, name, member, cost));
}

/** Takes `takes` (a request's, from requestTakes) one after another, as takeForRequest does each. */
export async function takeAllForRequest(sql: Sql, takes: readonly Take[]): Promise<void> {
  for (const one of takes) await forRequest(() => takeNow(sql, one));
}

/**
 * The takes of a request's limits (`wanted`: each name with its cost, in order), to be taken
 * together later: by takeAllForRequest, or with a like in its group commit (db/ops/like-batch.ts).
 * One that can never pass is answered as takeForRequest answers it: those before it are taken, then 429.
 */
export async function requestTakes(sql: Sql, limits: Limits, member: Limited, wanted: readonly [LimitName, number][]): Promise<Take[]> {
  const takes: Take[] = [];
  for (const [name, cost] of wanted) {
    try {
      const one = takeOf(limits, name, member, cost);
      if (one) takes.push(one);
    } catch (error) {
      if (!(error instanceof OverLimit)) throw error;
      await takeAllForRequest(sql, takes);
      throw tooOften(error);
    }
  }
  return takes;
}
