// The embedded engine: PGlite (PostgreSQL in WebAssembly) with its files in DATA_DIR, or in memory
// for tests. PGlite has one connection, so its transactions are already serialized.
import { accessSync, constants, existsSync, mkdirSync, statfsSync, statSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { DatabaseOpenError, safeDatabaseError, type Database, type Sql } from './adapter';

// PGlite's errors hold the statement's parameters (`params`) and row values (`detail`): they are
// thrown as a DatabaseError without them, so no log line can hold a password hash or a token's.
const wrap = (target: PGlite | Transaction): Sql => ({
  query: async <T>(text: string, params: unknown[] = []) => {
    try {
      return (await target.query<T>(text, params)).rows;
    } catch (error) {
      throw safeDatabaseError(error, params);
    }
  },
});

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
    mkdirSync(dir, { recursive: true });
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

export interface PgliteOptions {
  /** The data folder; undefined keeps the database in memory (tests). */
  dataDir?: string;
  /** Create dataDir when it is missing (the default ./data). */
  create?: boolean;
  /** The free space dataDir must have, in MB (default 64). */
  minFreeMb?: number;
  /** A dumped data folder to start from (tests clone one made once). */
  loadDataDir?: Blob | File;
}

/** Opens PGlite; throws DatabaseOpenError when its folder is missing, read-only, on a full disk or broken. */
export async function openPglite(options: PgliteOptions): Promise<Database & { pglite: PGlite }> {
  if (options.dataDir) checkDataDir(options.dataDir, options.create ?? false, options.minFreeMb ?? 64);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  } catch (error) {
    if (options.dataDir && isDiskFullError(error))
      throw new DatabaseOpenError(diskFull(options.dataDir, 'no space left while opening the database'));
    throw new DatabaseOpenError(`The embedded database in ${options.dataDir ?? 'memory'} cannot be opened: ${(error as Error).message}`);
  }
  return {
    kind: 'pglite',
    pglite,
    ...wrap(pglite),
    transaction: (fn) =>
      pglite
        .transaction((tx) => fn(wrap(tx)))
        .catch((error: unknown) => {
          throw safeDatabaseError(error, [], false);
        }),
    listen: async (channel, onPayload) => {
      const stop = await pglite.listen(channel, onPayload);
      return async () => stop();
    },
    close: () => pglite.close(),
  };
}
