// `npm run backup [-- <folder>]` and `npm run restore -- <folder>` (issue 43), for both engines:
// - The embedded database (DATA_DIR): a consistent copy of its folder while the server runs (the
//   server makes it, asked through DATA_DIR/backup.sock: backup/control.ts), or, the server stopped,
//   made here. The copy is then opened here and counted, so a backup that would not open is never
//   reported as made. Restore copies it into an empty DATA_DIR and opens it there.
// - PostgreSQL (DATABASE_URL): pg_dump in its custom format, from a snapshot that the counts are
//   read in too (pg_export_snapshot), while the server runs. Restore runs pg_restore into an empty
//   database.
// Each backup is a folder: the data, and backup.json saying what it holds (members, posts by
// status, replies, poll votes, attached files and their size, emails waiting), checked after a
// restore. Default folder: ./backups/insight-exchange-<UTC time>.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { ConfigError, readConfig, type Config } from './config';
import { DatabaseOpenError } from './db/storage/adapter';
import { needsCreation, openPglite } from './db/storage/pglite';
import { describeUrl, wrap } from './db/storage/postgres';
import { builtCreation } from './db/storage/ready-made';
import { askRunningServer } from './backup/control';
import { checkDestination, copyEmbedded, copyFolder, mustBeEmpty } from './backup/embedded';
import { countHoldings, describeHoldings, type Holdings } from './backup/holdings';
import { connectionArgs, runTool } from './backup/postgres-tools';
import { BUILD_ID } from './version';

const MANIFEST = 'backup.json';
const EMBEDDED_FOLDER = 'pglite';
const DUMP_FILE = 'postgres.dump';

export interface Manifest {
  kind: 'insight-exchange-backup';
  format: 1;
  engine: 'pglite' | 'postgres';
  createdAt: string;
  server: string;
  holds: Holdings;
}

const built = builtCreation(import.meta.url);

/** Opens the embedded database in `dir` (an existing one) here, runs `fn` on it, and closes it. */
async function withEmbedded<T>(dir: string, fn: (db: Awaited<ReturnType<typeof openPglite>>) => Promise<T>): Promise<T> {
  const db = await openPglite({ dataDir: dir, workerScript: built.workerScript });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** A postgres connection of one, for `fn`. */
async function withPostgres<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await sql`select 1`;
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw new DatabaseOpenError(`PostgreSQL at ${describeUrl(url)} cannot be reached: ${(error as Error).message}`);
  }
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/[:-]/gu, '')
    .replace(/\.\d+Z$/u, 'Z');

/** Makes a backup of the configured database in `folder`; returns its manifest. */
export async function backup(config: Config, folder: string): Promise<Manifest> {
  let engine: Manifest['engine'];
  let holds: Holdings;
  if (config.databaseUrl) {
    engine = 'postgres';
    await mustBeEmpty(folder);
    await mkdir(folder, { recursive: true });
    const { dbname, env } = connectionArgs(config.databaseUrl);
    holds = await withPostgres(config.databaseUrl, (sql) =>
      sql.begin('isolation level repeatable read read only', async (tx) => {
        const [{ snapshot }] = (await tx`select pg_export_snapshot() as snapshot`) as unknown as [{ snapshot: string }];
        const counted = await countHoldings(wrap(tx));
        await runTool(
          'pg_dump',
          [
            '--format=custom',
            '--no-owner',
            '--no-privileges',
            `--snapshot=${snapshot}`,
            `--file=${join(folder, DUMP_FILE)}`,
            `--dbname=${dbname}`,
          ],
          env,
        );
        return counted;
      }),
    );
    // The archive reads back (its table of contents), or the backup is not reported as made.
    await runTool('pg_restore', ['--list', join(folder, DUMP_FILE)], {});
  } else {
    engine = 'pglite';
    const copy = join(folder, EMBEDDED_FOLDER);
    await checkDestination(config.dataDir, folder);
    const running = await askRunningServer(config.dataDir, copy);
    if (!running) {
      if (!existsSync(config.dataDir) || needsCreation(config.dataDir))
        throw new Error(`DATA_DIR ${config.dataDir} holds no database to back up.`);
      await withEmbedded(config.dataDir, (db) => copyEmbedded(db, config.dataDir, copy));
    }
    // The copy opens, and holds what was counted when it was made.
    holds = await withEmbedded(copy, (db) => countHoldings(db));
    if (running && JSON.stringify(running) !== JSON.stringify(holds))
      throw new Error(`The copy in ${copy} does not hold what the server counted: ${describeHoldings(holds)}.`);
  }
  const manifest: Manifest = {
    kind: 'insight-exchange-backup',
    format: 1,
    engine,
    createdAt: new Date().toISOString(),
    server: BUILD_ID,
    holds,
  };
  await writeFile(join(folder, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Reads a backup's manifest, or says plainly why `folder` is not a backup. */
export async function readManifest(folder: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(folder, MANIFEST), 'utf8');
  } catch {
    throw new Error(`${folder} is not a backup made by npm run backup: it has no ${MANIFEST}.`);
  }
  const manifest = JSON.parse(text) as Partial<Manifest>;
  if (manifest.kind !== 'insight-exchange-backup' || manifest.format !== 1 || !manifest.holds)
    throw new Error(`${join(folder, MANIFEST)} is not a backup manifest this version reads.`);
  return manifest as Manifest;
}

/** Restores the backup in `folder` into the configured database, which must be empty; returns what it holds now. */
export async function restore(config: Config, folder: string): Promise<Holdings> {
  const manifest = await readManifest(folder);
  let holds: Holdings;
  if (config.databaseUrl) {
    if (manifest.engine !== 'postgres')
      throw new Error('This backup is of the embedded database: restore it with DATA_DIR set and DATABASE_URL unset.');
    const { dbname, env } = connectionArgs(config.databaseUrl);
    holds = await withPostgres(config.databaseUrl, async (sql) => {
      const [{ tables }] = (await sql`select count(*)::int as tables from pg_tables where schemaname = 'public'`) as unknown as [
        { tables: number },
      ];
      if (tables > 0)
        throw new Error(
          `The database at ${describeUrl(config.databaseUrl!)} is not empty: restore into a new one (createdb), then point DATABASE_URL at it.`,
        );
      await runTool(
        'pg_restore',
        ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, join(folder, DUMP_FILE)],
        env,
      );
      return countHoldings(wrap(sql));
    });
  } else {
    if (manifest.engine !== 'pglite') throw new Error('This backup is of a PostgreSQL database: restore it with DATABASE_URL set.');
    if (existsSync(config.dataDir) && (await readdir(config.dataDir)).length > 0)
      throw new Error(`DATA_DIR ${config.dataDir} already holds files: restore into a new, empty folder (or move this one away first).`);
    await copyFolder(join(folder, EMBEDDED_FOLDER), config.dataDir);
    holds = await withEmbedded(config.dataDir, (db) => countHoldings(db));
  }
  if (JSON.stringify(holds) !== JSON.stringify(manifest.holds))
    throw new Error(
      `The restored database does not hold what the backup says: ${describeHoldings(holds)}, not ${describeHoldings(manifest.holds)}.`,
    );
  return holds;
}

async function main(): Promise<void> {
  const [command, given] = process.argv.slice(2);
  const config = readConfig();
  const where = config.databaseUrl ? `PostgreSQL at ${describeUrl(config.databaseUrl)}` : `the embedded database in ${config.dataDir}`;
  if (command === 'backup') {
    const folder = resolve(given ?? join('backups', `insight-exchange-${stamp()}`));
    const started = Date.now();
    const manifest = await backup(config, folder);
    console.log(`Backed up ${where} to ${folder} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    console.log(`It holds ${describeHoldings(manifest.holds)}.`);
    console.log(`Restore it with: npm run restore -- ${folder}`);
  } else if (command === 'restore') {
    if (!given) throw new Error('Say which backup to restore: npm run restore -- <folder>.');
    const holds = await restore(config, resolve(given));
    console.log(`Restored ${resolve(given)} into ${where}: ${describeHoldings(holds)}.`);
    console.log(config.databaseUrl ? 'Start the server with this DATABASE_URL.' : `Start the server with DATA_DIR=${config.dataDir}.`);
  } else {
    throw new Error('Use npm run backup [-- <folder>] or npm run restore -- <folder>.');
  }
}

if (process.argv[1] && /backup\.(js|ts)$/u.test(process.argv[1]))
  main().catch((error: unknown) => {
    const known = error instanceof ConfigError || error instanceof DatabaseOpenError || error instanceof Error;
    console.error(
      `${process.argv[2] === 'restore' ? 'Cannot restore' : 'Cannot back up'}: ${known ? (error as Error).message : String(error)}`,
    );
    process.exit(1);
  });
