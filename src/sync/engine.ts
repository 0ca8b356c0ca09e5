// The sync loop of connected mode: push the outbox in order (batches of up to 100), then pull
// every change after the device's cursor, page by page, the next pages fetched while a batch is stored. One
// cycle runs at a time per device (a Web Lock across tabs); a request during a cycle runs one more.
// Failures back off. A held operation (a deletion waiting out its Undo window) is sent by a cycle
// that starts when its hold ends.

import { ownMemberId, rememberOwnMemberId } from '../db/members/own-id';
import { moveMemberData } from '../db/members/email-change';
import { takeConfirmed, takeFirstPage, WINDOW_FIRST_PAGE } from './confirmed';
import { MAX_OPS_PER_PUSH, MAX_POSTS_PAGE } from '../shared/protocol';
import { applyPullPages } from '../db/sync/apply-pull';
import { applyPushResults, type Refusal } from '../db/sync/apply-results';
import type { OutboxRow } from '../db/storage/schema';
import { uploadFilesFor } from './uploads';
import { countSetAside, countWaiting, holdOperations, nextBatch, nextHoldEnd, recordFailures } from '../db/ops/outbox';
import { removeLocalSamples } from '../db/sync/local-posts';
import { switchMember } from '../db/sync/member-switch';
import { readCursor, readLastSyncAt, writeLastSyncAt } from '../db/ops/sync-meta';
import type { Session } from '../db/types';
import { DataError, isDataError } from '../db/storage/errors';
import { ERRORS, titleOf } from '../shared/errors';
import type { PushResponse } from '../shared/protocol';
import { isOffline, isServerError, type SyncApi } from './api';
import { announce, setSyncStatus } from './status';
import { PullAhead } from './pull-ahead';
import { endWindowPages, keepWithinBudget, readWindow, takesWindow, WINDOW_POSTS } from '../db/sync/window';
import { storeForumPage } from '../db/sync/window-store';

export const PULL_PAGE_SIZE = 1000;
/** A device with nothing yet asks for a small first page, so the forum paints its first posts at once. */
export const FIRST_PULL_PAGE_SIZE = 100;
/**
 * The most pages stored in one transaction (and fetched ahead of it). Measured on a first sync of
 * 100,000 posts (bench/results.md, issue 24): the readers that run between two transactions (the
 * forum's list and counts) ran once per page; four pages per batch store the same in fewer rounds.
 */
export const PULL_PAGES_PER_BATCH = 4;
/** Stays under the server's 1 MiB body limit for /api/ops, whatever the posts' lengths. */
export const MAX_PUSH_BYTES = 768 * 1024;
const MAX_BACKOFF_MS = 30_000;
/**
 * The live stream's pokes pull at most once per POKE_GAP_MS on a tab (the last one waits for the gap
 * to end): a busy forum announces changes many times a second, and every pull counts under the
 * member's pages_per_minute (60 a minute, 60 at once): a device's pokes take at most 30 of them,
 * however many tabs it has open (a tab skips the pull another tab made for the same poke: pullWanted).
 */
export const POKE_GAP_MS = 2_000;
/** What a "Slow down" toast adds: nothing written is lost. */
export const KEPT_UNTIL_ALLOWED = 'It is kept on this device and sent then.';

export interface EngineDeps {
  api: SyncApi;
  session: () => Session | null;
  isOnline: () => boolean;
  /** Serialises cycles across tabs; defaults to running the work directly. */
  lock?: <T>(work: () => Promise<T>) => Promise<T>;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  random?: () => number;
  /** The clock (tests): when a failure happened. */
  now?: () => number;
  /** Called when the server says the session ended (401 signed_out), or that the staff stopped the member (`stopped`: why). */
  onSignedOut?: (stopped?: { title: string; description: string }) => void;
  /** Called with the server's account when it confirms the session: its role and name win. */
  onConfirmed?: (user: Session) => void;
  /** The member's address changed on the server (Change email): the stored session takes it. */
  onEmailChanged?: (user: Session) => void;
  /**
   * Waits while a screen is coming up (the app: until the forum's first posts are painted, or 600 ms
   * have passed, and then an idle moment): a window's pages after its first wait for it.
   */
  yieldToScreen?: () => Promise<void>;
  /** Called when the server speaks another protocol version: this build must be reloaded. */
  onOutdated?: () => void;
}

/** The toast for a refused operation that was undone on this device: the code's title, the server's sentence. */
export function refusalNotice(refusal: Refusal) {
  return { title: titleOf(refusal.code), description: refusal.reason };
}

/** A review another admin made first (only a review is refused `already_reviewed`). */
const lostReview = (refusal: Refusal) => refusal.code === 'already_reviewed';

/**
 * The toasts for one push's refusals. Several reviews lost to another admin (two admins' bulk
 * reviews overlapping) are told once, naming the posts; one alone keeps its own notice.
 */
export function refusalNotices(refusals: readonly Refusal[]) {
  const lost = refusals.filter(lostReview);
  if (lost.length < 2) return refusals.map(refusalNotice);
  const titles = lost.map((refusal) => `“${refusal.title ?? 'Untitled'}”`).join(', ');
  return [
    {
      title: titleOf('already_reviewed'),
      description: `${lost.length} of the posts you reviewed were already reviewed by another admin: ${titles}.`,
    },
    ...refusals.filter((refusal) => !lostReview(refusal)).map(refusalNotice),
  ];
}

/**
 * The account has two-step verification on (the pull said so): its offline verifier goes, so an
 * offline sign-in says it needs the network for the code. Loaded here only when needed; failing to
 * never fails the sync (the next pull says it again).
 */
const forgetOfflineVerifier = (email: string) =>
  import('../db/sync/offline-accounts').then(({ forgetVerifierForTwoStep }) => forgetVerifierForTwoStep(email)).catch(() => undefined);

/**
 * The server's own word that it failed on the request (a bug): its JSON `server_error`. A 503, a
 * proxy's error page or an answer it could not read (`bad_answer`) says nothing about the
 * operations: they are retried with the back-off and never counted against one.
 */
const isServerFault = (error: unknown): error is DataError => isServerError(error) && error.code === 'server_error';

/** An answer the server could not give about an operation it could never take (too large, malformed). */
const isUnacceptable = (error: unknown): error is DataError => isServerError(error) && (error.status === 400 || error.status === 413);

/** The longest prefix of `batch` whose operations fit one request body (at least one). */
function fitBody<T extends { op: unknown }>(batch: T[]): T[] {
  // The server's limit is in bytes of UTF-8: a character of CJK text takes three.
  const encoder = new TextEncoder();
  let size = 0;
  for (let i = 0; i < batch.length; i += 1) {
    size += encoder.encode(JSON.stringify(batch[i]!.op)).length + 1;
    if (size > MAX_PUSH_BYTES) return batch.slice(0, Math.max(1, i));
  }
  return batch;
}

/** The answer an operation gets when the server would not take its file: over a limit, held and sent later; else refused (its words kept as a draft). */
function uploadRefusal(id: string, error: DataError, cursor: number): PushResponse {
  if (error.code === 'slow_down') {
    const retryAfter = Math.ceil((error.retryAfterMs ?? 60_000) / 1000);
    return { results: [{ id, status: 'failed', code: 'slow_down', reason: error.message, retryAfter }], cursor: 0 };
  }
  return { results: [{ id, status: 'refused', code: error.code, reason: error.message }], cursor };
}

export class SyncEngine {
  private running: Promise<void> | undefined;
  private again = false;
  private failures = 0;
  private timer: unknown;
  /** The cycle that sends the first held operation once its hold ends. */
  private holdTimer: { timer: unknown; at: number } | undefined;
  private stopped = false;
  private knownCursor = 0;
  /** The live stream's pacing (notifyServerCursor): when a poke last pulled, and the newest cursor announced. */
  private lastPokeAt = -Infinity;
  private pokedCursor = 0;
  private pokeTimer: unknown;
  /**
   * Whether a cycle must pull whatever the stored cursor says: every request but a live-stream poke.
   * A poke's cycle skips the pull when another tab of this device already pulled past the poked
   * cursor (its pages are in the shared IndexedDB): two open tabs pull once per change, not twice,
   * and stay within the member's pages_per_minute together.
   */
  private pullWanted = false;
  /** The server said it speaks another protocol version (told once). */
  private outdated = false;
  /** The member the server's session cookie was last confirmed to belong to. */
  private verifiedEmail: string | undefined;

  constructor(private readonly deps: EngineDeps) {}

  /** Asks for a sync now; returns when this request (and any it was folded into) has run. */
  sync(): Promise<void> {
    this.pullWanted = true;
    return this.run();
  }

  private run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.cycle().catch((error: unknown) => {
            // A fault before the cycle's own handling (the device's database closed): said, not
            // left showing Syncing… (a write sets it at once).
            setSyncStatus({ state: 'error', message: ERRORS.unexpected.message });
            throw error;
          });
        } while (this.again && !this.stopped);
      } finally {
        // Cleared as the loop ends, not a step later: a request in between would find a loop that
        // has ended and only mark it to go again.
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Retry now, forgetting the back-off (the Retry button, coming online, focus). */
  retry(): Promise<void> {
    this.failures = 0;
    this.cancelTimer();
    return this.sync();
  }

  /** The live stream said the server has changes up to `cursor`: pull if this device lacks them (paced: POKE_GAP_MS). */
  notifyServerCursor(cursor: number): void {
    if (cursor <= this.knownCursor) return;
    this.pokedCursor = Math.max(this.pokedCursor, cursor);
    if (this.pokeTimer !== undefined) return;
    const now = (this.deps.now ?? Date.now)();
    const wait = this.lastPokeAt + POKE_GAP_MS - now;
    if (wait <= 0) {
      this.lastPokeAt = now;
      void this.run();
      return;
    }
    const setTimer = this.deps.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.pokeTimer = setTimer(() => {
      this.pokeTimer = undefined;
      if (this.pokedCursor > this.knownCursor) this.notifyServerCursor(this.pokedCursor);
    }, wait);
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer();
    this.cancelHoldTimer();
    if (this.pokeTimer !== undefined)
      (this.deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>)))(this.pokeTimer);
    this.pokeTimer = undefined;
  }

  /**
   * A write on this device: the status says Syncing… at once (before, it could say Synced for a
   * moment after the screen showed the write, until the waiting count was read), then the count is
   * refreshed and a sync runs.
   */
  localChange(): Promise<void> {
    if (!this.stopped && this.deps.session() && this.deps.isOnline()) setSyncStatus({ state: 'syncing' });
    void this.refreshWaiting();
    return this.sync();
  }

  /** Refreshes the waiting count (after a local write). */
  private async refreshWaiting(): Promise<void> {
    const session = this.deps.session();
    setSyncStatus({ waiting: session ? await countWaiting(session.email) : 0 });
  }

  private async cycle(): Promise<void> {
    const mustPull = this.pullWanted;
    this.pullWanted = false;
    let session = this.deps.session();
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
    // Before the push looks at the outbox: a hold that ends after this is armed below, even when it
    // ended while this cycle pulled (else nothing would send that operation).
    const pushFrom = Date.now();
    try {
      const lock = this.deps.lock ?? ((work) => work());
      await lock(async () => {
        session = await this.verifySession(session!);
        await removeLocalSamples();
        const sent = await this.pushAll(session);
        if (mustPull || sent || !(await this.pulledElsewhere())) await this.pullAll(session);
      });
      this.failures = 0;
      await this.armHoldTimer(session, pushFrom);
      await writeLastSyncAt();
      const waiting = await countWaiting(session.email);
      const lastSyncAt = await readLastSyncAt();
      // A write (or another request) that came while this cycle ran is sent by the next one: not
      // Synced yet, even when its row was not there yet when the count was read.
      setSyncStatus({ state: this.again ? 'syncing' : 'synced', waiting, lastSyncAt });
    } catch (error) {
      await this.failed(error, session);
    }
  }

  /** The server's session must be this member's: never send one member's changes as another's. */
  /** Returns the session to sync as: `session`, or the same member under their new address. */
  private async verifySession(session: Session): Promise<Session> {
    if (this.verifiedEmail === session.email) return session;
    // Signed in on this page a moment ago: the sign-in's answer was the server's word (its role and
    // name still replace what the stored user says now).
    const signedIn = takeConfirmed(session.email);
    if (signedIn) {
      this.verifiedEmail = session.email;
      if (signedIn.role !== session.role || signedIn.name !== session.name) this.deps.onConfirmed?.(signedIn);
      return session;
    }
    const user = await this.deps.api.currentUser();
    // The same account under a new address (Change email, issue 59): its public id did not change.
    // The device's data moves to the address, and the stored session follows: no member switch.
    if (user && user.email !== session.email && user.id && user.id === (await ownMemberId(session.email))) {
      await moveMemberData(session.email, user.email);
      this.verifiedEmail = user.email;
      const moved = { ...session, email: user.email, name: user.name, role: user.role };
      this.deps.onEmailChanged?.(moved);
      return moved;
    }
    if (user?.email !== session.email) throw new DataError('signed_out', { status: 401 });
    this.verifiedEmail = session.email;
    // The member's public id, for what they write here (an account made before a server named ids: from now on).
    await rememberOwnMemberId(session.email, user.id);
    if (user.role !== session.role || user.name !== session.name)
      this.deps.onConfirmed?.({ email: user.email, name: user.name, role: user.role });
    return session;
  }

  /** Forgets the confirmed session (the member changed). */
  sessionChanged(): void {
    this.verifiedEmail = undefined;
  }

  /** A poke's changes are already stored: another tab of this device pulled past the poked cursor. */
  private async pulledElsewhere(): Promise<boolean> {
    const stored = await readCursor();
    if (stored === 0 || stored < this.pokedCursor) return false;
    this.knownCursor = Math.max(this.knownCursor, stored);
    return true;
  }

  /** Sends the outbox; says whether anything was sent. */
  private async pushAll(session: Session): Promise<boolean> {
    // After a server fault on a batch, operations go one at a time, so the one it fails on is found.
    let single = false;
    for (let sent = false; ; sent = true) {
      const next = fitBody(await nextBatch(session.email, MAX_OPS_PER_PUSH));
      let batch = single ? next.slice(0, 1) : next;
      if (batch.length === 0) return sent;
      let answer: PushResponse;
      // The files the operations name go first; an operation whose file the server refused is
      // answered as the server would have answered the operation (the ones before it are sent).
      const upload = await uploadFilesFor(batch, this.deps.api);
      if (upload?.index === 0) {
        batch = batch.slice(0, 1);
        answer = uploadRefusal(batch[0]!.op.id, upload.error, this.knownCursor);
      } else {
        if (upload) batch = batch.slice(0, upload.index);
        try {
          answer = await this.deps.api.push(batch.map((row) => row.op));
        } catch (error) {
          // The server faulted on, or could not take, the batch as a whole: find the operation.
          if ((isServerFault(error) || isUnacceptable(error)) && batch.length > 1) {
            single = true;
            continue;
          }
          // One operation the server cannot take at all (too large, malformed): refuse it here, and
          // one it keeps failing on: count it, then set it aside. Either way it never blocks the rest.
          const id = batch[0]!.op.id;
          if (isServerFault(error)) answer = { results: [{ id, status: 'failed', code: error.code, reason: error.message }], cursor: 0 };
          else if (isUnacceptable(error) && batch.length === 1) {
            answer = { results: [{ id, status: 'refused', code: error.code, reason: error.message }], cursor: this.knownCursor };
          } else throw error;
        }
      }
      const refusals = await applyPushResults(batch, answer.results, answer.cursor);
      for (const notice of refusalNotices(refusals)) announce(notice);
      const failed = await this.countFailures(batch, answer);
      setSyncStatus({ waiting: await countWaiting(session.email) });
      // An answer that settled nothing would repeat forever: stop and let the back-off retry.
      if (answer.results.length === 0) throw new DataError('no_results');
      if (failed) throw failed;
    }
  }

  /**
   * Counts the server's failures on operations of `batch`; announces those now set aside. Returns
   * the error to back off with while some failed operation is still queued (else undefined).
   */
  private async countFailures(batch: readonly OutboxRow[], answer: PushResponse): Promise<DataError | undefined> {
    await this.holdSlowed(batch, answer);
    type Failed = Extract<PushResponse['results'][number], { status: 'failed' }>;
    const failed = answer.results.filter((result): result is Failed => result.status === 'failed' && result.code !== 'slow_down');
    if (failed.length === 0) return undefined;
    const ids = new Set(failed.map((result) => result.id));
    const rows = batch.filter((row) => ids.has(row.op.id)).map((row) => row.seq!);
    const setAside = await recordFailures(rows, (this.deps.now ?? Date.now)());
    if (setAside.length > 0) {
      announce({ title: titleOf('set_aside'), description: new DataError('set_aside').message });
      setSyncStatus({ setAside: await countSetAside(setAside[0]!.email) });
    }
    if (setAside.length === failed.length) return undefined;
    const first = failed[0]!;
    return new DataError(first.code, { message: first.reason, status: 500 });
  }

  /**
   * Operations the server found over a limit (`slow_down`, with `retryAfter`): held on this device
   * until then and sent by the cycle that starts when the hold ends; the member is told once per
   * answer ("Slow down", when, and that nothing is lost).
   */
  private async holdSlowed(batch: readonly OutboxRow[], answer: PushResponse): Promise<void> {
    const slowed = answer.results.filter(
      (result): result is Extract<PushResponse['results'][number], { status: 'failed' }> =>
        result.status === 'failed' && result.code === 'slow_down',
    );
    if (slowed.length === 0) return;
    const now = Date.now();
    const byId = new Map(batch.map((row) => [row.op.id, row]));
    const waits = new Map<number, number>();
    for (const result of slowed) {
      const row = byId.get(result.id);
      if (row) waits.set(row.seq!, now + Math.max(1, result.retryAfter ?? 60) * 1000);
    }
    for (const [seq, until] of waits) await holdOperations([seq], until);
    announce({ title: titleOf('slow_down'), description: `${slowed[0]!.reason} ${KEPT_UNTIL_ALLOWED}` });
  }

  /**
   * A new or cleared device's first sync takes a window (issue 44, db/sync/window.ts): the newest
   * WINDOW_POSTS approved posts newest first (the first page small, so the forum paints at once),
   * then what it always keeps (own, saved, to admins what waits). The pull from the start that
   * follows asks for a post's rows only above the first page's change head.
   */
  private async pullWindow(session: Session): Promise<void> {
    const posts = this.deps.api.posts?.bind(this.deps.api);
    if (!posts || !(await takesWindow())) return;
    let head = (await readWindow()).head;
    let before: number | undefined;
    let stored = 0;
    let more = true;
    while (more && stored < WINDOW_POSTS) {
      const limit = stored === 0 ? WINDOW_FIRST_PAGE : Math.min(MAX_POSTS_PAGE, WINDOW_POSTS - stored);
      // The first page may have been asked for as the sign-in answered (if that failed, again now).
      const early = stored === 0 ? takeFirstPage(session.email) : undefined;
      const ask = () => posts({ limit, ...(before === undefined ? {} : { before }) });
      const page = early ? await early.catch(ask) : await ask();
      head ??= page.cursor;
      await storeForumPage(page, session.email, { head });
      stored += page.posts.length;
      more = page.more && page.posts.length > 0;
      before = page.posts.at(-1)?.id;
      // The rest is background work: the screen opening meanwhile (the forum's first posts) goes first.
      if (more && stored === page.posts.length) await this.deps.yieldToScreen?.();
    }
    for (let kept: number | undefined, again = true; again;) {
      const page = await posts({ part: 'kept', limit: MAX_POSTS_PAGE, ...(kept === undefined ? {} : { before: kept }) });
      await storeForumPage(page, session.email, { head });
      again = page.more && page.posts.length > 0;
      kept = page.posts.at(-1)?.id;
    }
    await endWindowPages(more && before !== undefined ? before : 0);
  }

  private async pullAll(session: Session): Promise<void> {
    if ((await readCursor()) === 0) await this.pullWindow(session);
    const cursor = await readCursor();
    const postsAfter = (await readWindow()).head;
    let from = cursor;
    // The next pages are fetched while a batch is stored: the network and IndexedDB overlap, and
    // the pages that arrived meanwhile are stored together. Each cursor is kept only once its page
    // is stored, so a failure anywhere resumes from there.
    const pull =
      postsAfter === undefined
        ? (after: number, limit: number) => this.deps.api.pull(after, limit)
        : (after: number, limit: number) => this.deps.api.pull(after, limit, postsAfter);
    const reader = new PullAhead(pull, cursor, {
      firstLimit: cursor === 0 ? FIRST_PULL_PAGE_SIZE : PULL_PAGE_SIZE,
      limit: PULL_PAGE_SIZE,
      most: PULL_PAGES_PER_BATCH,
    });
    try {
      for (;;) {
        const pages = await reader.take();
        // `from`: a page asked for before the cursor went back (Download the whole forum) leaves it there.
        await applyPullPages(pages, session.email, from);
        // Two-step verification turned on elsewhere (issue 63): the password alone must no longer
        // sign in here, even offline, so the device's offline verifier goes now.
        if (pages.some((page) => page.twoStep)) await forgetOfflineVerifier(session.email);
        const last = pages[pages.length - 1]!;
        from = last.cursor;
        this.knownCursor = Math.max(this.knownCursor, last.cursor);
        if (!last.more) break;
      }
    } finally {
      reader.stop();
    }
    // What arrived may take the device past its budget: the oldest leave (never own, saved or queued).
    await keepWithinBudget(session.email);
  }

  private async failed(error: unknown, session: Session): Promise<void> {
    const waiting = await countWaiting(session.email).catch(() => 0);
    if (isOffline(error)) {
      setSyncStatus({ state: 'offline', waiting });
    } else if (
      isDataError(error, 'signed_out') ||
      isDataError(error, 'suspended') ||
      isDataError(error, 'account_closed') ||
      isDataError(error, 'password_changed') ||
      isDataError(error, 'session_revoked') ||
      isDataError(error, 'account_deleted') ||
      isDataError(error, 'sso_removed')
    ) {
      // The session ended on the server (expired, or the staff suspended or closed the account):
      // retrying cannot help until the member signs in again. The staff's reason goes with it.
      setSyncStatus({ state: 'error', message: error.message, waiting });
      this.deps.onSignedOut?.(error.code === 'signed_out' ? undefined : { title: error.title, description: error.message });
      return;
    } else if (isDataError(error, 'protocol_mismatch')) {
      // The server speaks another version: only a reload (to the new build) helps. Nothing is lost.
      setSyncStatus({ state: 'error', message: error.message, waiting });
      if (!this.outdated) announce({ title: error.title, description: error.message });
      this.outdated = true;
      this.deps.onOutdated?.();
      return;
    } else if (isDataError(error, 'slow_down') && error.retryAfterMs !== undefined) {
      // Too many pushes at once: the server said when to come back. Nothing is lost meanwhile.
      setSyncStatus({ state: 'error', message: error.message, waiting });
      announce({ title: error.title, description: `${error.message} ${KEPT_UNTIL_ALLOWED}` });
      this.scheduleRetry(error.retryAfterMs);
      return;
    } else {
      // A typed error says its own sentence; a fault of this build a plain one (its detail to the console).
      if (!isDataError(error)) console.warn('Sync failed', error);
      setSyncStatus({ state: 'error', message: isDataError(error) ? error.message : ERRORS.unexpected.message, waiting });
    }
    this.failures += 1;
    const base = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** (this.failures - 1));
    this.scheduleRetry(base / 2 + (this.deps.random ?? Math.random)() * (base / 2));
  }

  /** Runs the next cycle in `delay` ms (one timer). */
  private scheduleRetry(delay: number): void {
    this.cancelTimer();
    const setTimer = this.deps.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.timer = setTimer(() => {
      this.timer = undefined;
      void this.sync();
    }, delay);
  }

  /**
   * Starts a cycle when the first held operation of this member falls due (one timer, the earliest),
   * counting the holds still on when this cycle's push began (`pushFrom`): one that ended meanwhile
   * goes at once.
   */
  private async armHoldTimer(session: Session, pushFrom: number): Promise<void> {
    // The wall clock, as nextBatch and Undo read it (deps.now is the failures' clock).
    const now = Date.now();
    const at = await nextHoldEnd(session.email, pushFrom);
    if (at === undefined || this.stopped) {
      this.cancelHoldTimer();
      return;
    }
    if (this.holdTimer?.at === at) return;
    this.cancelHoldTimer();
    const setTimer = this.deps.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    const timer = setTimer(
      () => {
        if (this.holdTimer?.timer === timer) this.holdTimer = undefined;
        void this.sync();
      },
      Math.max(0, at - now),
    );
    this.holdTimer = { timer, at };
  }

  private cancelHoldTimer(): void {
    if (this.holdTimer === undefined) return;
    (this.deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>)))(this.holdTimer.timer);
    this.holdTimer = undefined;
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    (this.deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>)))(this.timer);
    this.timer = undefined;
  }
}
