// The durable queue of emails (migration 13's mail_outbox), on PGlite and PostgreSQL alike. A
// message is written by the same transaction that decided it, so nothing decided is ever lost; every
// instance runs a MailWorker, and each message is claimed by one of them at a time (FOR UPDATE SKIP
// LOCKED) under a lease: a sender killed mid-message leaves a claim that expires, and the next
// worker sends it. A refused or failed send is tried again with exponential backoff, up to
// MAX_ATTEMPTS; a message is marked sent once the SMTP server accepted it.
import { notificationSeenSql, postVisibleSql, sqlViewer } from '../../src/shared/visibility';
import type { Database, Sql } from '../db/storage/adapter';
import type { MailContent } from './templates';
import type { MailTransport } from './transport';

/** The channel an enqueue NOTIFYs on, so a worker sends at once rather than at its next poll. */
export const MAIL_CHANNEL = 'ie_mail';

export const MAX_ATTEMPTS = 12;

/** What a message is about (for the log, the tests and "Download my data"). */
export type MailKind =
  | 'confirm'
  | 'signupAttempt'
  | 'reset'
  | 'passwordChanged'
  | 'away'
  | 'digest'
  | 'signup'
  | 'emailChange'
  | 'emailChangeAsked'
  | 'emailChanged';

/**
 * Queues `content` to `to` inside `tx` (the caller's transaction); sent once the transaction commits.
 * `postIds`: the posts it names, which its recipient (`userId`) must still see when it is sent.
 */
export async function enqueueMail(
  tx: Sql,
  mail: { kind: MailKind; to: string; userId: number | null; content: MailContent; now?: number; postIds?: readonly number[] },
): Promise<void> {
  const now = mail.now ?? Date.now();
  await tx.query(
    `INSERT INTO mail_outbox (kind, user_id, to_email, subject, text_body, html_body, headers, created_at, next_attempt_at, post_ids)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $8, $9::bigint[])`,
    [
      mail.kind,
      mail.userId,
      mail.to,
      mail.content.subject,
      mail.content.text,
      mail.content.html,
      JSON.stringify(mail.content.headers ?? {}),
      now,
      mail.postIds?.length ? [...new Set(mail.postIds)] : null,
    ],
  );
  await tx.query(`SELECT pg_notify('${MAIL_CHANNEL}', '')`);
}

/** The wait before attempt `attempts + 1`: base × 2^(attempts − 1), at most an hour. */
export const backoffMs = (attempts: number, baseMs: number) => Math.min(60 * 60_000, baseMs * 2 ** Math.max(0, attempts - 1));

export interface MailWorkerOptions {
  transport: MailTransport;
  from: string;
  /** How long a claim holds (default 5 minutes: longer than nodemailer's timeouts allow a send to take). */
  leaseMs?: number;
  /** The first retry's wait (default 30 s), doubled at each failure. */
  retryBaseMs?: number;
  /** How often the queue is looked at without a NOTIFY (default 15 s). */
  pollMs?: number;
  log?: { info(message: string): void; warn(message: string): void };
  /** Work that runs at each poll (the away and digest emails: mail/notify.ts). */
  onTick?: () => Promise<void>;
}

interface ClaimedRow {
  id: unknown;
  to_email: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: unknown;
  attempts: unknown;
  locked_until: unknown;
  user_id: unknown;
  post_ids: unknown;
}

/** Why a message naming a post is not sent (mail_outbox.last_error; failed_at set: never tried again). */
export const WITHHELD = 'withheld: it names a post its recipient may no longer see';

// The posts a message names that its recipient may not see now (by the one rule, private categories
// included; a deleted post is none): $1 the recipient's account id, $2 the posts' ids.
const UNSEEN_NOW = `SELECT n.id FROM unnest($2::bigint[]) AS n(id) JOIN users u ON u.id = $1
  WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = n.id AND ${postVisibleSql(sqlViewer("(u.role = 'admin')", 'u.email'), 'p')})
  LIMIT 1`;

/** The ids of a bigint[] column as PGlite and node-postgres hand it over (an array, or its text form). */
const idsOf = (value: unknown): number[] =>
  Array.isArray(value)
    ? value.map(Number)
    : typeof value === 'string'
      ? value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number)
      : [];

/** Sends what the queue holds, one message at a time, on this instance. */
export class MailWorker {
  private timer?: ReturnType<typeof setTimeout>;
  private running?: Promise<void>;
  private followUp?: Promise<void>;
  private stopped = false;
  private unlisten?: () => Promise<void>;
  private readonly leaseMs: number;
  private readonly retryBaseMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly db: Database,
    private readonly options: MailWorkerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.retryBaseMs = options.retryBaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 15_000;
  }

  async start(): Promise<void> {
    // Listening again after the database was away: an email queued meanwhile was never announced.
    this.unlisten = await this.db.listen(
      MAIL_CHANNEL,
      () => this.wake(),
      () => this.wake(),
    );
    this.wake();
  }

  /** Stops after the message being sent (if any). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.unlisten?.();
    await this.running;
    this.options.transport.close();
  }

  /**
   * Looks at the queue now (a NOTIFY, a test). Resolves when a round that began after this call is
   * done: a round already under way may have read the queue before a message now in it was committed,
   * so a call during one is answered by the round that follows it (one follow-up for any number of calls).
   */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      const next = () => {
        this.followUp = undefined;
        return this.wake();
      };
      this.followUp ??= this.running.then(next, next);
      return this.followUp;
    }
    clearTimeout(this.timer);
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (!this.stopped && !this.followUp) void this.schedule();
    });
    return this.running;
  }

  /** The next look: when the next retry is due, or at the poll interval, whichever comes first. */
  private async schedule(): Promise<void> {
    // A message another instance holds is due when its claim runs out, not before (no busy loop).
    const [row] = await this.db
      .query<{ due: unknown }>(
        'SELECT min(greatest(next_attempt_at, coalesce(locked_until, 0))) AS due FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL',
      )
      .catch(() => []);
    if (this.stopped || this.running) return;
    const due = row?.due === null || row?.due === undefined ? Infinity : Number(row.due) - Date.now();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.wake(), Math.max(10, Math.min(this.pollMs, due)));
  }

  private lastTick = 0;

  private async round(): Promise<void> {
    try {
      // The notification rounds run once per poll interval, not at every enqueue's NOTIFY.
      if (Date.now() - this.lastTick >= this.pollMs) {
        this.lastTick = Date.now();
        await this.options.onTick?.();
      }
    } catch (error) {
      this.options.log?.warn(`email: the notifications round failed: ${(error as Error).message}`);
    }
    while (!this.stopped) {
      const row = await this.claim().catch((error: unknown) => {
        this.options.log?.warn(`email: the queue cannot be read: ${(error as Error).message}`);
        return undefined;
      });
      if (!row) return;
      await this.send(row);
    }
  }

  /** Claims the oldest message that is due and not claimed by a live lease. */
  private async claim(): Promise<ClaimedRow | undefined> {
    const now = Date.now();
    const [row] = await this.db.query<ClaimedRow>(
      `UPDATE mail_outbox SET locked_until = $2, attempts = attempts + 1
       WHERE id = (
         SELECT id FROM mail_outbox
         WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
         ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
       ) RETURNING id, to_email, subject, text_body, html_body, headers, attempts, locked_until, user_id, post_ids`,
      [now, now + this.leaseMs],
    );
    return row;
  }

  /**
   * Whether the message names a post its recipient may no longer see (the rule at sending time, not
   * at queueing: taken out of a private category's group meanwhile). Such a message is marked failed,
   * never sent; the notifications it named that they may still see are left to the next round.
   */
  private async withheld(row: ClaimedRow): Promise<boolean> {
    const ids = idsOf(row.post_ids);
    if (ids.length === 0 || row.user_id === null || row.user_id === undefined) return false;
    const unseen = await this.db.query(UNSEEN_NOW, [Number(row.user_id), ids]);
    if (unseen.length === 0) return false;
    await this.db.transaction(async (tx) => {
      await tx.query(`UPDATE mail_outbox SET locked_until = NULL, failed_at = $2, last_error = $3 WHERE id = $1 AND sent_at IS NULL`, [
        Number(row.id),
        Date.now(),
        WITHHELD,
      ]);
      await tx.query(
        `UPDATE notifications y SET emailed_at = NULL WHERE y.user_id = $1 AND y.post_id = ANY($2::bigint[]) AND y.read_at IS NULL
           AND y.emailed_at IS NOT NULL AND ${notificationSeenSql('y')}`,
        [Number(row.user_id), ids],
      );
    });
    this.options.log?.warn(`email ${Number(row.id)}: not sent (${WITHHELD})`);
    return true;
  }

  private async send(row: ClaimedRow): Promise<void> {
    const id = Number(row.id);
    const attempts = Number(row.attempts);
    // Not sent, and not tried again, when the look fails: the next round claims it once the lease runs out.
    const withheld = await this.withheld(row).catch((error: unknown) => {
      this.options.log?.warn(`email ${id}: who may see what it names cannot be read: ${(error as Error).message}`);
      return undefined;
    });
    if (withheld !== false) return;
    let claimedUntil = Number(row.locked_until);
    const headers = (typeof row.headers === 'string' ? JSON.parse(row.headers) : (row.headers ?? {})) as Record<string, string>;
    // The claim is renewed while the mail server takes its time (a slow DATA): another instance
    // takes the message only once this one is gone (killed, or cut off from the database), never
    // while it is still sending it, which would deliver it twice.
    const renewal = setInterval(
      () => {
        const until = Date.now() + this.leaseMs;
        this.db
          .query('UPDATE mail_outbox SET locked_until = $2 WHERE id = $1 AND sent_at IS NULL AND locked_until = $3 RETURNING id', [
            id,
            until,
            claimedUntil,
          ])
          .then(
            (rows) => {
              if (rows.length > 0) claimedUntil = until;
            },
            () => undefined,
          );
      },
      Math.max(250, Math.floor(this.leaseMs / 3)),
    );
    renewal.unref();
    try {
      await this.options.transport.send({
        id,
        to: row.to_email,
        from: this.options.from,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        headers,
      });
      clearInterval(renewal);
    } catch (error) {
      clearInterval(renewal);
      const reason = (error as Error).message.slice(0, 500);
      const giveUp = attempts >= MAX_ATTEMPTS;
      const wait = backoffMs(attempts, this.retryBaseMs);
      await this.db
        .query(
          `UPDATE mail_outbox SET locked_until = NULL, last_error = $2, next_attempt_at = $3, failed_at = $4 WHERE id = $1 AND sent_at IS NULL`,
          [id, reason, Date.now() + wait, giveUp ? Date.now() : null],
        )
        .catch(() => undefined);
      this.options.log?.warn(
        giveUp
          ? `email ${id}: not sent after ${attempts} attempts, given up (${reason})`
          : `email ${id}: not sent (${reason}); trying again in ${Math.round(wait / 1000)} s`,
      );
      return;
    }
    await this.markSent(id, claimedUntil);
  }

  /**
   * Records that the SMTP server accepted message `id`. The database may be away just then (a
   * restart, the pooler restarted): the message was delivered, so the record is tried again, a
   * little later each time, for as long as this claim holds; another instance takes the message
   * only after that, so it is not sent twice unless the database stays away longer than the lease.
   */
  private async markSent(id: number, claimedUntil: number): Promise<void> {
    for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
      try {
        await this.db.query('UPDATE mail_outbox SET sent_at = $2, locked_until = NULL, last_error = NULL WHERE id = $1', [id, Date.now()]);
        this.options.log?.info(`email ${id} sent to ${this.options.transport.describe}`);
        return;
      } catch (error) {
        // Stopping (a shutdown waits for this) or out of lease: left for the lease to run out.
        if (this.stopped || Date.now() + wait >= claimedUntil) {
          this.options.log?.warn(`email ${id}: sent, but not recorded as sent: ${(error as Error).message}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
}
