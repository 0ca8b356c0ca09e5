// The ready-made empty database: PGlite's initdb output (with the server's settings), made once per
// PGlite version by `npm run db:ready-made` and kept in the repository as
// server/db/storage/empty-database-pglite-<version>.tar.br (a tar, Brotli-compressed: 1.3 MB, against 4.3 MB gzip). The server's build copies the one that matches the
// installed PGlite beside dist-server/server.js, and a first start on an empty DATA_DIR unpacks it
// instead of running initdb: initdb peaks at 620-670 MB, unpacking at the size of a warm start
// (docs/server.md, "Memory"). Without a match (PGlite upgraded, the tarball not remade) the build says
// so and the first start creates the database in a child process, as before.
// No import of PGlite here: the server's build config reads this file.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The file's name beside the built server. */
export const READY_MADE_NAME = 'empty-database.tar.br';

/** Where the repository keeps the ready-made database for PGlite `version`, from the repository's root. */
export const readyMadeSource = (version: string): string => join('server', 'db', 'storage', `empty-database-pglite-${version}.tar.br`);

/** The installed @electric-sql/pglite's version (its package.json is not among its exports). */
export function installedPgliteVersion(from: string = import.meta.url): string {
  let dir = dirname(createRequire(from).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('@electric-sql/pglite has no package.json');
    dir = parent;
  }
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * What the build put beside `moduleUrl` (dist-server/): for a first start on an empty DATA_DIR the
 * ready-made database and create-database.js, and the embedded database's worker, each only when it is
 * there (run from source, none is: PGlite's initdb runs in this process, the worker from its source).
 */
export function builtCreation(moduleUrl: string): { readyMade?: string; createScript?: string; workerScript?: string } {
  const dir = dirname(fileURLToPath(moduleUrl));
  const readyMade = join(dir, READY_MADE_NAME);
  const createScript = join(dir, 'create-database.js');
  const workerScript = join(dir, 'pglite-worker.js');
  return {
    ...(existsSync(readyMade) ? { readyMade } : {}),
    ...(existsSync(createScript) ? { createScript } : {}),
    ...(existsSync(workerScript) ? { workerScript } : {}),
  };
}
