// Opens the configured database: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR.
import type { Config } from '../config';
import type { Database } from './adapter';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

/**
 * The database of `config`; throws DatabaseOpenError with a readable message when it cannot open.
 * `createScript` (the built create-database.js) creates an empty DATA_DIR in a child process.
 */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'defaultDataDir' | 'minFreeMb'>,
  createScript?: string,
): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  return openPglite({ dataDir: config.dataDir, create: config.defaultDataDir, minFreeMb: config.minFreeMb, createScript });
}
