// `node dist-server/create-database.js <DATA_DIR> [<ready-made tarball>]`: creates PGlite's database
// in an empty folder and exits, so that the memory the creation takes goes back to the system with
// this process. With the ready-made empty database (db/ready-made.ts) it unpacks that, else it runs
// PGlite's initdb. The server runs it as a child on a first start (db/pglite.ts, createInChild); the
// server's start-up then migrates and seeds the ready folder. Exit 0 when created, 1 with one line on
// stderr when not.
//
// `node dist-server/create-database.js --ready-made` (`npm run db:ready-made`, from the repository's
// root): writes the ready-made empty database for the installed PGlite, server/db/
// empty-database-pglite-<version>.tar.br (db/ready-made.ts). Run it after upgrading PGlite.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { needsCreation, pgliteCreateOptions, readReadyMade } from './db/storage/pglite';
import { installedPgliteVersion, readyMadeSource } from './db/storage/ready-made';

const STAGING = '.creating';

/**
 * Creates the database in `dir`/.creating, then moves it into `dir` with PG_VERSION last: a creation
 * cut short (killed, a full disk) never leaves a folder that holds PG_VERSION without the rest, which
 * every later start would take for a database (needsCreation) and fail to open. Leftovers of such a
 * cut are replaced: without PG_VERSION there is no database in `dir` to keep.
 */
async function create(dir: string, readyMade: string | undefined): Promise<void> {
  if (!needsCreation(dir)) return;
  const staging = join(dir, STAGING);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  const pglite = await PGlite.create({ dataDir: staging, loadDataDir: readReadyMade(readyMade), ...pgliteCreateOptions() });
  await pglite.close();
  const names = readdirSync(staging).filter((name) => name !== 'PG_VERSION');
  for (const name of [...names, 'PG_VERSION']) {
    rmSync(join(dir, name), { recursive: true, force: true });
    renameSync(join(staging, name), join(dir, name));
  }
  rmSync(staging, { recursive: true, force: true });
}

async function makeReadyMade(): Promise<void> {
  const pglite = await PGlite.create(pgliteCreateOptions());
  const tar = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  await pglite.close();
  // Brotli's largest window (16 MB) finds the three databases' files alike: 1.3 MB, gzip 4.3.
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT } = constants;
  const packed = brotliCompressSync(tar, {
    params: { [BROTLI_PARAM_QUALITY]: 11, [BROTLI_PARAM_LGWIN]: 24, [BROTLI_PARAM_SIZE_HINT]: tar.length },
  });
  const file = readyMadeSource(installedPgliteVersion());
  writeFileSync(file, packed);
  console.log(`Wrote ${file} (${(packed.length / 2 ** 20).toFixed(1)} MB). Commit it, and remove the file of the previous PGlite.`);
}

async function main(): Promise<void> {
  const arg = process.argv[2];
  if (arg === '--ready-made') return makeReadyMade();
  if (!arg) throw new Error('usage: node dist-server/create-database.js <DATA_DIR> [<ready-made tarball>] | --ready-made');
  return create(arg, process.argv[3]);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
