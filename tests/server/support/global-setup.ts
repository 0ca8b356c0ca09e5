// Once per run: a throwaway PostgreSQL server and a dump of a fresh PGlite data folder (its first
// start is slow, so every test database is a clone of this one).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../../scripts/postgres.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    pgliteDump: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const postgres = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'ie-pglite-'));
  const pglite = await PGlite.create();
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const dumpPath = join(dir, 'empty.tar');
  writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  project.provide('postgresUrl', postgres.url);
  project.provide('pgliteDump', dumpPath);
  return () => {
    postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
