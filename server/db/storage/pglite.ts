// The embedded engine: PGlite (PostgreSQL in WebAssembly) with its files in DATA_DIR, or in memory
// for tests, in a worker thread of its own (pglite-worker.ts): a long statement never holds the
// thread that answers HTTP. PGlite has one connection, so its transactions are already serialized.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { DatabaseError, DatabaseOpenError, safeDatabaseError, type Database, type Sql } from './adapter';
import type { FromWorker, ToWorker, WorkerError, WorkerStart } from './pglite-protocol';

/** The sentence for a DATA_DIR without room for the database (a full disk at start). */
const diskFull = (dir: string, detail: string) =>
  `The disk holding DATA_DIR ${dir} is full (${detail}): free some space, or point DATA_DIR at another disk.`;

/** True when `error` says a write found no space left on the device (ENOSPC). */
export function isDiskFullError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ENOSPC' || /ENOSPC|no space left on device/i.test(String(message ?? ''));
}

/** Checks DATA_DIR before PGlite touches it: a clear message instead of a WebAssembly stack. */
function checkDataDir(dir: string, create: boolean, minFreeMb: number): void {
  if (!existsSync(dir)) {
    if (!create) throw new DatabaseOpenError(`DATA_DIR ${dir} does not exist: create it, or unset DATA_DIR to use ./data.`);
    // Only the server's user may read it: it holds members' emails and password hashes.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  if (!statSync(dir).isDirectory()) throw new DatabaseOpenError(`DATA_DIR ${dir} is not a folder.`);
  try {
    accessSync(dir, constants.R_OK | constants.W_OK);
  } catch {
    throw new DatabaseOpenError(`DATA_DIR ${dir} is not writable by this user: the database cannot be opened.`);
  }
  const { bavail, bsize } = statfsSync(dir);
  const freeMb = Math.floor((bavail * bsize) / 2 ** 20);
  if (freeMb < minFreeMb) throw new DatabaseOpenError(diskFull(dir, `${freeMb} MB free, MIN_FREE_MB asks for ${minFreeMb} MB`));
}

/**
 * PostgreSQL settings inside PGlite, added to PGlite's own start parameters (kept as they are). The
 * defaults size shared memory for a 100-connection server: 128 MB of shared_buffers, all of them
 * touched at start, held for the life of the process. PGlite has one connection and the data files
 * stay in the operating system's page cache, so 16 MB of buffers and 5 connection slots take the
 * resident memory of a warm start from about 290 MB to about 160 MB (docs/server.md, "Memory").
 * Durability is unchanged: nothing here touches fsync, synchronous_commit or the WAL.
 */
export const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB', '-c', 'max_connections=5'] as const;
export const pgliteStartParams = (): string[] => [...PGlite.defaultStartParams, ...PGLITE_SETTINGS];
/** The same settings for PGlite's initdb: its test runs and bootstrap use them (about 40 MB less at the peak), and it writes them into the folder's postgresql.conf. */
export const pgliteCreateOptions = () => ({ startParams: pgliteStartParams(), initDbStartParams: [...PGLITE_SETTINGS] });

/** True when `dir` holds no database yet (PGlite would run its initdb there). */
export const needsCreation = (dir: string): boolean => !existsSync(join(dir, 'PG_VERSION'));

/**
 * Runs `script` (dist-server/create-database.js) in a short-lived Node process that creates the
 * database in `dir` and exits: from the ready-made empty database when `readyMade` is given (db/
 * ready-made.ts), else by PGlite's initdb, which peaks near 700 MB. A process that unpacked or
 * created a database keeps much of that memory afterwards (about 415 MB idle after unpacking in the
 * server's own process, measured); the server then opens the ready folder at a warm start's size.
 * V8 compiles the WebAssembly once with its baseline compiler only (--liftoff-only): about 100 MB
 * less at the peak, for a creation that runs once.
 */
function createInChild(script: string, dir: string, readyMade: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = ['--liftoff-only', script, dir, ...(readyMade ? [readyMade] : [])];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.once('error', (error) => reject(new DatabaseOpenError(`The embedded database in ${dir} cannot be created: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) return resolve();
      const detail = stderr.trim().split('\n').at(-1) || (signal ? `killed by ${signal}` : `exit code ${code}`);
      if (isDiskFullError({ message: stderr }))
        return reject(new DatabaseOpenError(diskFull(dir, 'no space left while creating the database')));
      reject(new DatabaseOpenError(`The embedded database in ${dir} cannot be created: ${detail}`));
    });
  });
}

export interface PgliteOptions {
  /** The data folder; undefined keeps the database in memory (tests). */
  dataDir?: string;
  /** Create dataDir when it is missing (the default ./data). */
  create?: boolean;
  /** The free space dataDir must have, in MB (default 64). */
  minFreeMb?: number;
  /** A dumped data folder to start from (tests clone one made once). */
  loadDataDir?: Blob | File;
  /**
   * The ready-made empty database (dist-server/empty-database.tar.br, db/ready-made.ts): an empty
   * dataDir is unpacked from it instead of running initdb (by createScript's child when given).
   */
  readyMade?: string;
  /**
   * The built create-database.js: an empty dataDir is then created by a child process running it
   * (the server's start; tests and tools create in their own process).
   */
  createScript?: string;
  /** The worker's script: the built dist-server/pglite-worker.js (run from source: pglite-worker.ts). */
  workerScript?: string;
}

/** The ready-made database's tar, or undefined when there is none to read (the creation then runs initdb). */
export function readReadyMade(file: string | undefined): Blob | undefined {
  if (!file) return undefined;
  try {
    return new Blob([brotliDecompressSync(readFileSync(file))]);
  } catch {
    return undefined;
  }
}

/** The source of the worker, beside this file (the built server passes dist-server/pglite-worker.js). */
const SOURCE_WORKER = new URL('./pglite-worker.ts', import.meta.url);

/** A request waiting for the worker's answer, with the parameters its error message must not show. */
interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: unknown) => void;
  params: readonly unknown[];
  stack: string | undefined;
}

/** The worker's error as the server keeps it: a DatabaseError without any parameter's value. */
const fromWorker = (error: WorkerError, params: readonly unknown[], stack: string | undefined): unknown =>
  safeDatabaseError({ ...error, stack: stack ?? error.stack, severity: error.severity ?? 'ERROR' }, params);

/**
 * The main thread's side of the worker: numbered requests and their answers, the NOTIFYs heard,
 * and a clear refusal of every request once the worker has stopped.
 */
class WorkerLink {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private stopped: string | undefined;

  constructor(private readonly worker: Worker) {
    worker.on('message', (message: FromWorker) => {
      if ('channel' in message) {
        for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload);
        return;
      }
      if (!('id' in message)) return;
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if ('error' in message) waiting.reject(fromWorker(message.error, waiting.params, waiting.stack));
      else waiting.resolve(message.rows);
    });
    worker.on('error', (error) => this.stop(`The embedded database stopped: ${error.message}`));
    worker.on('exit', () => this.stop('The embedded database is closed.'));
  }

  private stop(reason: string): void {
    this.stopped ??= reason;
    for (const waiting of this.pending.values()) waiting.reject(new DatabaseError({ code: '57P01' }, reason, waiting.stack));
    this.pending.clear();
  }

  /** Sends `message` (its id filled in) and resolves with the answer's rows. */
  request(message: DistributiveOmit<ToWorker, 'id'>, params: readonly unknown[] = []): Promise<unknown[]> {
    const stack = new Error().stack;
    if (this.stopped) return Promise.reject(new DatabaseError({ code: '57P01' }, this.stopped, stack));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, params, stack });
      this.worker.postMessage({ ...message, id });
    });
  }

  newTransactionId = (): number => this.nextId++;

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    let heard = this.listeners.get(channel);
    if (!heard) {
      heard = new Set();
      this.listeners.set(channel, heard);
      await this.request({ op: 'listen', channel });
    }
    heard.add(onPayload);
    return async () => {
      heard.delete(onPayload);
      if (heard.size > 0 || this.listeners.get(channel) !== heard) return;
      this.listeners.delete(channel);
      if (!this.stopped) await this.request({ op: 'unlisten', channel });
    };
  }

  /** Closes the database (the statements waiting run first) and waits for the thread to end. */
  async close(): Promise<void> {
    if (this.stopped) return;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    await this.request({ op: 'close' });
    await exited;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Starts the worker and resolves once PGlite is open in it; a failure to open rejects with the engine's message. */
function startWorker(script: string | URL, start: WorkerStart): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: start, transferList: start.loadDataDir ? [start.loadDataDir] : [] });
    const fail = (error: Error) => {
      worker.off('message', opened);
      reject(error);
    };
    const opened = (message: FromWorker) => {
      if (!('opened' in message)) return;
      worker.off('message', opened);
      worker.off('error', fail);
      if (message.opened) resolve(worker);
      else reject(Object.assign(new Error(message.error.message), message.error));
    };
    worker.on('message', opened);
    worker.once('error', fail);
  });
}

/**
 * Opens PGlite in a worker thread of its own (pglite-worker.ts); throws DatabaseOpenError when its
 * folder is missing, read-only, on a full disk or broken.
 */
export async function openPglite(options: PgliteOptions): Promise<Database> {
  if (options.dataDir) checkDataDir(options.dataDir, options.create ?? false, options.minFreeMb ?? 64);
  const creating = options.dataDir !== undefined && !options.loadDataDir && needsCreation(options.dataDir);
  if (creating && options.createScript) await createInChild(options.createScript, options.dataDir!, options.readyMade);
  const inProcess = creating && !options.createScript;
  const loadDataDir = options.loadDataDir ?? (inProcess ? readReadyMade(options.readyMade) : undefined);
  let worker: Worker;
  try {
    worker = await startWorker(options.workerScript ?? SOURCE_WORKER, {
      dataDir: options.dataDir,
      loadDataDir: loadDataDir ? await loadDataDir.arrayBuffer() : undefined,
      ...pgliteCreateOptions(),
    });
  } catch (error) {
    if (options.dataDir && isDiskFullError(error))
      throw new DatabaseOpenError(diskFull(options.dataDir, 'no space left while opening the database'));
    throw new DatabaseOpenError(`The embedded database in ${options.dataDir ?? 'memory'} cannot be opened: ${(error as Error).message}`);
  }
  const link = new WorkerLink(worker);
  const statements = (background: boolean, tx?: number): Sql => ({
    query: async <T>(text: string, params: unknown[] = []) =>
      (await link.request({ op: 'query', text, params, tx, background }, params)) as T[],
  });
  return {
    kind: 'pglite',
    ...statements(false),
    background: statements(true),
    transaction: async (fn, priority) => {
      const tx = link.newTransactionId();
      await link.request({ op: 'begin', tx, background: priority?.background });
      let result;
      try {
        result = await fn(statements(false, tx));
      } catch (error) {
        await link.request({ op: 'end', tx, commit: false }).catch(() => {});
        throw safeDatabaseError(error, [], false);
      }
      await link.request({ op: 'end', tx, commit: true });
      return result;
    },
    listen: (channel, onPayload) => link.listen(channel, onPayload),
    close: () => link.close(),
  };
}
