// The sync loop of connected mode: push the outbox in order (batches of up to 100), then pull
// every change after the device's cursor, page by page, the next fetched while one is stored. One
// cycle runs at a time per device (a Web Lock across tabs); a request during a cycle runs one more.
// Failures back off.

import { MAX_OPS_PER_PUSH } from '../shared/protocol';
import { applyPullPage } from '../db/sync/apply-pull';
import { applyPushResults, type Refusal } from '../db/sync/apply-results';
import { countWaiting, nextBatch } from '../db/sync/outbox';
import { removeLocalSamples } from '../db/sync/local-posts';
import { switchMember } from '../db/sync/member-switch';
import { readCursor, readLastSyncAt, writeLastSyncAt } from '../db/sync/sync-meta';
import type { Session } from '../db/types';
import { OfflineError, ServerError, type SyncApi } from './api';
import { announce, setSyncStatus } from './status';

export const PULL_PAGE_SIZE = 1000;
/** A device with nothing yet asks for a small first page, so the forum paints its first posts at once. */
export const FIRST_PULL_PAGE_SIZE = 100;
/** Stays under the server's 1 MiB body limit for /api/ops, whatever the posts' lengths. */
export const MAX_PUSH_CHARS = 768 * 1024;
const MAX_BACKOFF_MS = 30_000;

export interface EngineDeps {
  api: SyncApi;
  session: () => Session | null;
  isOnline: () => boolean;
  /** Serialises cycles across tabs; defaults to running the work directly. */
  lock?: <T>(work: () => Promise<T>) => Promise<T>;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  random?: () => number;
  /** Called when the server says the session ended (401 signed_out). */
  onSignedOut?: () => void;
  /** Called with the server's account when it confirms the session: its role and name win. */
  onConfirmed?: (user: Session) => void;
}

const REFUSAL_TITLES: Record<string, string> = {
  already_reviewed: 'Already reviewed',
  not_found: 'Post removed',
  forbidden: 'Not allowed',
};

/** The toast for a refused operation that was undone on this device. */
export function refusalNotice(refusal: Refusal) {
  return { title: REFUSAL_TITLES[refusal.code] ?? 'Change not saved', description: refusal.reason };
}

/** The longest prefix of `batch` whose operations fit one request body (at least one). */
function fitBody<T extends { op: unknown }>(batch: T[]): T[] {
  let size = 0;
  for (let i = 0; i < batch.length; i += 1) {
    size += JSON.stringify(batch[i]!.op).length + 1;
    if (size > MAX_PUSH_CHARS) return batch.slice(0, Math.max(1, i));
  }
  return batch;
}

export class SyncEngine {
  private running: Promise<void> | undefined;
  private again = false;
  private failures = 0;
  private timer: unknown;
  private stopped = false;
  private knownCursor = 0;
  /** The member the server's session cookie was last confirmed to belong to. */
  private verifiedEmail: string | undefined;

  constructor(private readonly deps: EngineDeps) {}

  /** Asks for a sync now; returns when this request (and any it was folded into) has run. */
  sync(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.cycle();
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Retry now, forgetting the back-off (the Retry button, coming online, focus). */
  retry(): Promise<void> {
    this.failures = 0;
    this.cancelTimer();
    return this.sync();
  }

  /** The live stream said the server has changes up to `cursor`: pull if this device lacks them. */
  notifyServerCursor(cursor: number): void {
    if (cursor > this.knownCursor) void this.sync();
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer();
  }

  /** Refreshes the waiting count (after a local write). */
  async refreshWaiting(): Promise<void> {
    const session = this.deps.session();
    setSyncStatus({ waiting: session ? await countWaiting(session.email) : 0 });
  }

  private async cycle(): Promise<void> {
    const session = this.deps.session();
    if (!session) {
      setSyncStatus({ state: 'synced', waiting: 0 });
      return;
    }
    // Local work first, so a member who signs in offline never sees the previous member's posts.
    await switchMember(session);
    setSyncStatus({ waiting: await countWaiting(session.email), lastSyncAt: await readLastSyncAt() });
    if (!this.deps.isOnline()) {
      setSyncStatus({ state: 'offline' });
      return;
    }
    setSyncStatus({ state: 'syncing' });
    try {
      const lock = this.deps.lock ?? ((work) => work());
      await lock(async () => {
        await this.verifySession(session);
        await removeLocalSamples();
        await this.pushAll(session);
        await this.pullAll(session);
      });
      this.failures = 0;
      await writeLastSyncAt();
      setSyncStatus({ state: 'synced', waiting: await countWaiting(session.email), lastSyncAt: await readLastSyncAt() });
    } catch (error) {
      await this.failed(error, session);
    }
  }

  /** The server's session must be this member's: never send one member's changes as another's. */
  private async verifySession(session: Session): Promise<void> {
    if (this.verifiedEmail === session.email) return;
    const user = await this.deps.api.currentUser();
    if (user?.email !== session.email) throw new ServerError(401, 'signed_out', 'Please sign in again.');
    this.verifiedEmail = session.email;
    if (user.role !== session.role || user.name !== session.name) this.deps.onConfirmed?.(user);
  }

  /** Forgets the confirmed session (the member changed). */
  sessionChanged(): void {
    this.verifiedEmail = undefined;
  }

  private async pushAll(session: Session): Promise<void> {
    for (;;) {
      const batch = fitBody(await nextBatch(session.email, MAX_OPS_PER_PUSH));
      if (batch.length === 0) return;
      let answer;
      try {
        answer = await this.deps.api.push(batch.map((row) => row.op));
      } catch (error) {
        // One operation the server cannot take at all (too large, malformed): refuse it here,
        // so that it never blocks the queue behind it.
        if (!(error instanceof ServerError) || batch.length !== 1 || (error.status !== 400 && error.status !== 413)) throw error;
        answer = {
          results: [{ id: batch[0]!.op.id, status: 'refused' as const, code: error.code, reason: error.message }],
          cursor: this.knownCursor,
        };
      }
      const refusals = await applyPushResults(batch, answer.results, answer.cursor);
      for (const refusal of refusals) announce(refusalNotice(refusal));
      setSyncStatus({ waiting: await countWaiting(session.email) });
      // An answer that settled nothing would repeat forever: stop and let the back-off retry.
      if (answer.results.length === 0) throw new ServerError(200, 'no_results', 'The server did not answer the changes sent.');
    }
  }

  private async pullAll(session: Session): Promise<void> {
    const cursor = await readCursor();
    let next = this.deps.api.pull(cursor, cursor === 0 ? FIRST_PULL_PAGE_SIZE : PULL_PAGE_SIZE);
    for (;;) {
      const page = await next;
      // The next page is asked for while this one is stored: the network and IndexedDB overlap.
      // Its cursor is kept only once it is applied, so a failure anywhere resumes from here.
      if (page.more) {
        next = this.deps.api.pull(page.cursor, PULL_PAGE_SIZE);
        next.catch(() => undefined); // awaited below, or dropped when applying this page fails
      }
      await applyPullPage(page, session.email);
      this.knownCursor = Math.max(this.knownCursor, page.cursor);
      if (!page.more) return;
    }
  }

  private async failed(error: unknown, session: Session): Promise<void> {
    const waiting = await countWaiting(session.email).catch(() => 0);
    if (error instanceof OfflineError) {
      setSyncStatus({ state: 'offline', waiting });
    } else if (error instanceof ServerError && error.code === 'signed_out') {
      // The session ended on the server: retrying cannot help until the member signs in again.
      setSyncStatus({ state: 'error', message: error.message, waiting });
      this.deps.onSignedOut?.();
      return;
    } else {
      setSyncStatus({ state: 'error', message: error instanceof Error ? error.message : 'Sync failed.', waiting });
    }
    this.failures += 1;
    const base = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** (this.failures - 1));
    const delay = base / 2 + (this.deps.random ?? Math.random)() * (base / 2);
    this.cancelTimer();
    const setTimer = this.deps.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.timer = setTimer(() => {
      this.timer = undefined;
      void this.sync();
    }, delay);
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    (this.deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>)))(this.timer);
    this.timer = undefined;
  }
}
