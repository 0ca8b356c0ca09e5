// `node dist-server/create-database.js <DATA_DIR>`: creates PGlite's database in an empty folder and
// exits, so that the memory PGlite's creation takes goes back to the system with this process. The
// server runs it as a child on a first start (db/pglite.ts, createInChild); the server's start-up
// then migrates and seeds the ready folder. Exit 0 when created, 1 with one line on stderr when not.
import { PGlite } from '@electric-sql/pglite';
import { needsCreation, pgliteCreateOptions } from './db/pglite';

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node dist-server/create-database.js <DATA_DIR>');
  if (!needsCreation(dir)) return;
  const pglite = await PGlite.create({ dataDir: dir, ...pgliteCreateOptions() });
  await pglite.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
