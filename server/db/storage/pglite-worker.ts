// The embedded database's own thread: PGlite (PostgreSQL in WebAssembly) runs here, so a long
// statement (a heavy search, a first pull's page) never holds the thread that answers HTTP.
// db/storage/pglite.ts starts this worker and speaks to it by messages (pglite-protocol.ts).
// PGlite has one connection: statements run one at a time, each waiting foreground one (a like, a
// sign-in, the health check) before any waiting background one (a search, a pull's page), and a
// transaction holds the connection from its BEGIN to its COMMIT or ROLLBACK.
// Self-contained (no import of the server's modules): Node runs it from source in the tests.
//
// Durability (issue 43). PGlite on Node writes through the operating system, but its fsync does
// nothing (electric-sql/pglite#1107), so a commit's WAL sat in the page cache: safe from a crash of
// the process, not from a power cut. With a data folder, what a commit wrote is made durable here
// before it is answered: the WAL segments written since the last sync are fdatasync'd (and pg_wal
// itself when a segment came or went), and after a checkpoint (pg_control rewritten) the data files
// it wrote, before the recycled WAL could be all that held them. Group commit: answers that end a
// job (a statement alone, a COMMIT) and NOTIFYs wait, at most GROUP_COMMIT_MS or until the queue
// empties or background work is next, and one sync answers them all.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { Durable } from './pglite-durable.ts';
import type { FromWorker, ToWorker, WorkerError, WorkerStart } from './pglite-protocol.ts';

const port = parentPort!;
const start = workerData as WorkerStart;
const send = (message: FromWorker) => port.postMessage(message);

/** How long a finished job's answer may wait for others to share its sync. */
const GROUP_COMMIT_MS = 2;
const durable = start.dataDir ? new Durable(start.dataDir) : undefined;
/** Answers and NOTIFYs waiting for the next sync. */
let held: FromWorker[] = [];
let flushTimer: ReturnType<typeof setTimeout> | undefined;

/** Syncs, then sends what waited for it. A sync that fails answers each waiting request with the error (its commit may not be on disk). */
function flush(): void {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  if (held.length === 0) return;
  const waiting = held;
  held = [];
  try {
    durable!.sync();
  } catch (error) {
    const failed: WorkerError = { message: `The database could not make its writes durable: ${(error as Error).message}`, code: '58030' };
    for (const message of waiting) if ('id' in message) send({ id: message.id, error: failed });
    return;
  }
  for (const message of waiting) send(message);
}

/** Sends the message that ends a job (or a NOTIFY) once what it saw is durable. */
function settle(message: FromWorker): void {
  if (!durable) return send(message);
  held.push(message);
  flushTimer ??= setTimeout(flush, GROUP_COMMIT_MS);
}

/** An engine's error as plain fields (no `params`, no `detail`: the main thread redacts the message). */
function asWorkerError(error: unknown): WorkerError {
  const source = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as Record<string, unknown>;
  const fields: WorkerError = { message: typeof source.message === 'string' ? source.message : 'The database failed.' };
  for (const key of ['code', 'severity', 'routine', 'constraint', 'table', 'column', 'query', 'stack'] as const) {
    if (typeof source[key] === 'string') fields[key] = source[key];
  }
  return fields;
}

/** The messages of one open transaction, in the order they came. */
class Inbox {
  private waiting: ((message: ToWorker) => void) | undefined;
  private readonly held: ToWorker[] = [];
  put(message: ToWorker): void {
    if (this.waiting) {
      const take = this.waiting;
      this.waiting = undefined;
      take(message);
    } else this.held.push(message);
  }
  next(): Promise<ToWorker> {
    const message = this.held.shift();
    if (message) return Promise.resolve(message);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

type Job = { kind: 'query'; id: number; text: string; params: unknown[] } | { kind: 'transaction'; id: number; tx: number };

const foreground: Job[] = [];
const background: Job[] = [];
/** How long background work waits after foreground work for the foreground's next statement. */
const GRACE_MS = 5;
let foregroundCame: (() => void) | undefined;

/** Resolves when a foreground job comes, or after GRACE_MS. */
function foregroundOrGrace(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      foregroundCame = undefined;
      resolve();
    }, GRACE_MS);
    foregroundCame = () => {
      clearTimeout(timer);
      foregroundCame = undefined;
      resolve();
    };
  });
}

/** Queues `job` and starts the queue when it is idle. */
function enqueue(pglite: PGlite, job: Job, inBackground: boolean | undefined): void {
  if (inBackground) background.push(job);
  else {
    foreground.push(job);
    foregroundCame?.();
  }
  void pump(pglite);
}
const inboxes = new Map<number, Inbox>();
const listening = new Map<string, () => Promise<void>>();
let running = false;
let closing: number | undefined;

/** Thrown to roll a transaction back when the main thread asks for it. */
const ROLLBACK = Symbol('rollback');

/** Runs one statement; `answer`: send (inside a transaction) or settle (a statement alone ends its job). */
async function runQuery(target: PGlite | Transaction, id: number, text: string, params: unknown[], answer = send): Promise<void> {
  try {
    answer({ id, rows: (await target.query(text, params)).rows });
  } catch (error) {
    answer({ id, error: asWorkerError(error) });
  }
}

async function runTransaction(pglite: PGlite, job: Extract<Job, { kind: 'transaction' }>): Promise<void> {
  const inbox = new Inbox();
  inboxes.set(job.tx, inbox);
  let end: number | undefined;
  try {
    await pglite.transaction(async (tx) => {
      send({ id: job.id, rows: [] });
      for (;;) {
        const message = await inbox.next();
        if (message.op === 'query') await runQuery(tx, message.id, message.text, message.params);
        else if (message.op === 'end') {
          end = message.id;
          if (message.commit) return;
          throw ROLLBACK;
        }
      }
    });
    settle({ id: end!, rows: [] });
  } catch (error) {
    if (end === undefined) send({ id: job.id, error: asWorkerError(error) });
    else if (error === ROLLBACK) send({ id: end, rows: [] });
    else settle({ id: end, error: asWorkerError(error) });
  } finally {
    inboxes.delete(job.tx);
  }
}

async function pump(pglite: PGlite): Promise<void> {
  if (running) return;
  running = true;
  // The messages that came while a statement ran are taken in first (a statement holds this thread,
  // and each message waits for a turn of its event loop), then the next job is chosen among them all.
  // After foreground work, background work waits a moment (GRACE_MS) for the foreground's next
  // statement: a like is several statements, and each would otherwise wait for a whole search.
  let afterForeground = false;
  const nextJob = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    if (afterForeground && foreground.length === 0 && background.length > 0) await foregroundOrGrace();
    afterForeground = foreground.length > 0;
    const fromForeground = foreground.length > 0;
    const job = fromForeground ? foreground.shift() : background.shift();
    // Nothing else to share a sync with, or long work next: what waits is answered first.
    if (!fromForeground) flush();
    return job;
  };
  try {
    for (let job = await nextJob(); job; job = await nextJob()) {
      if (job.kind === 'query') await runQuery(pglite, job.id, job.text, job.params, settle);
      else await runTransaction(pglite, job);
    }
  } finally {
    running = false;
    flush();
  }
  if (closing !== undefined) await close(pglite, closing);
}

async function close(pglite: PGlite, id: number): Promise<void> {
  for (const stop of listening.values()) await stop();
  listening.clear();
  flush();
  await pglite.close();
  // The shutdown checkpoint's files, on disk before the close is answered; a sync that fails (the
  // folder removed under a running server, EIO) is the close's answer, for the server to report.
  try {
    durable?.sync();
  } catch (error) {
    send({
      id,
      error: { message: `The database closed, but its last writes may not be on disk: ${(error as Error).message}`, code: '58030' },
    });
    port.close();
    return;
  }
  send({ id, rows: [] });
  port.close();
}

async function main(): Promise<void> {
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      dataDir: start.dataDir,
      loadDataDir: start.loadDataDir ? new Blob([start.loadDataDir]) : undefined,
      startParams: start.startParams,
      initDbStartParams: start.initDbStartParams,
    });
  } catch (error) {
    send({ opened: false, error: asWorkerError(error) });
    port.close();
    return;
  }
  port.on('message', (message: ToWorker) => {
    switch (message.op) {
      case 'query':
        if (message.tx !== undefined) return inboxes.get(message.tx)?.put(message);
        return enqueue(pglite, { kind: 'query', id: message.id, text: message.text, params: message.params }, message.background);
      case 'begin':
        return enqueue(pglite, { kind: 'transaction', id: message.id, tx: message.tx }, message.background);
      case 'end':
        return inboxes.get(message.tx)?.put(message);
      case 'listen':
        return void pglite
          .listen(message.channel, (payload) => settle({ channel: message.channel, payload }))
          .then(
            (stop) => {
              listening.set(message.channel, stop);
              send({ id: message.id, rows: [] });
            },
            (error: unknown) => send({ id: message.id, error: asWorkerError(error) }),
          );
      case 'unlisten': {
        const stop = listening.get(message.channel);
        listening.delete(message.channel);
        return void (stop ? stop() : Promise.resolve()).then(() => send({ id: message.id, rows: [] }));
      }
      case 'close':
        closing = message.id;
        if (!running) void close(pglite, message.id);
        return;
    }
  });
  send({ opened: true });
}

void main();
