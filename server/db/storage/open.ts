// Opens the configured database: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR.
import type { Config } from '../../config';
import type { Database } from './adapter';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

/**
 * The database of `config`; throws DatabaseOpenError with a readable message when it cannot open.
 * An empty DATA_DIR is unpacked from `built.readyMade` (the ready-made empty database) when there is
 * one, else created by `built.createScript` (the built create-database.js) in a child process.
 */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'defaultDataDir' | 'minFreeMb'> &
    Partial<Pick<Config, 'databaseListenUrl' | 'databasePoolMode' | 'replicaUrl'>>,
  built: { readyMade?: string; createScript?: string; workerScript?: string } = {},
): Promise<Database> {
  if (config.databaseUrl)
    return openPostgres(config.databaseUrl, {
      listenUrl: config.databaseListenUrl,
      replicaUrl: config.replicaUrl,
      prepare: config.databasePoolMode !== 'transaction',
    });
  return openPglite({ dataDir: config.dataDir, create: config.defaultDataDir, minFreeMb: config.minFreeMb, ...built });
}
