// The embedded engine: PGlite (PostgreSQL in WebAssembly) with its files in DATA_DIR, or in memory
// for tests. PGlite has one connection, so its transactions are already serialized.
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { DatabaseOpenError, type Database, type Sql } from './adapter';

const wrap = (target: PGlite | Transaction): Sql => ({
  query: async <T>(text: string, params: unknown[] = []) => (await target.query<T>(text, params)).rows,
});

/** Checks DATA_DIR before PGlite touches it: a clear message instead of a WebAssembly stack. */
function checkDataDir(dir: string, create: boolean): void {
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
}

export interface PgliteOptions {
  /** The data folder; undefined keeps the database in memory (tests). */
  dataDir?: string;
  /** Create dataDir when it is missing (the default ./data). */
  create?: boolean;
  /** A dumped data folder to start from (tests clone one made once). */
  loadDataDir?: Blob | File;
}

/** Opens PGlite; throws DatabaseOpenError when its folder is missing, read-only or broken. */
export async function openPglite(options: PgliteOptions): Promise<Database & { pglite: PGlite }> {
  if (options.dataDir) checkDataDir(options.dataDir, options.create ?? false);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  } catch (error) {
    throw new DatabaseOpenError(`The embedded database in ${options.dataDir ?? 'memory'} cannot be opened: ${(error as Error).message}`);
  }
  return {
    kind: 'pglite',
    pglite,
    ...wrap(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(wrap(tx))),
    listen: async (channel, onPayload) => {
      const stop = await pglite.listen(channel, onPayload);
      return async () => stop();
    },
    close: () => pglite.close(),
  };
}
