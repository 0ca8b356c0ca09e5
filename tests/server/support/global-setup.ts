// Once per run: a throwaway PostgreSQL server, and the databases every test starts from, made once:
// an empty PGlite data folder (its first start is slow), and a migrated, seeded one with the admin
// account on each engine (a PGlite dump, a PostgreSQL template database). A test's fresh database
// is a copy of these: about 0.9 s instead of 2.7 s on PGlite, 0.1 s instead of 0.8 s on PostgreSQL.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../../scripts/postgres.mjs';
import type { Database, Sql } from '../../../server/db/storage/adapter';
import { openPostgres } from '../../../server/db/storage/postgres';
import { startUp } from '../../../server/db/storage/startup';
import { readReadyMade } from '../../../server/db/storage/pglite';
import { installedPgliteVersion, readyMadeSource } from '../../../server/db/storage/ready-made';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TEMPLATE_DATABASE } from './database-names';
import { buildServerBundle, serverBundleBuilt } from './process';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    pgliteDump: string;
    pgliteFreshDump: string;
  }
}

/** PGlite in this process, as the server's worker answers (rows of each statement). */
function inProcess(pglite: PGlite): Database {
  const sql = (target: PGlite | Transaction): Sql => ({
    query: async <T>(text: string, params: unknown[] = []) => (await target.query(text, params)).rows as T[],
  });
  return {
    kind: 'pglite',
    ...sql(pglite),
    background: sql(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(sql(tx))),
    listen: async () => async () => undefined,
    close: () => pglite.close(),
  };
}

const startOptions = { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, log: () => undefined };

async function dumpOf(pglite: PGlite, path: string): Promise<string> {
  const dump = await pglite.dumpDataDir('none');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  return path;
}

export default async function setup(project: TestProject): Promise<() => void> {
  // npm test's second lane of server tests (scripts/server-lanes.mjs) uses the first lane's setup:
  // its PostgreSQL, its dumps and its server bundle (the first lane ends after the second).
  const shared = process.env.SERVER_TEST_SETUP;
  if (shared) {
    const { postgresUrl, pgliteDump, pgliteFreshDump } = JSON.parse(shared) as Record<string, string>;
    if (!postgresUrl || !pgliteDump || !pgliteFreshDump) throw new Error(`SERVER_TEST_SETUP lacks a part: ${shared}`);
    serverBundleBuilt();
    project.provide('postgresUrl', postgresUrl);
    project.provide('pgliteDump', pgliteDump);
    project.provide('pgliteFreshDump', pgliteFreshDump);
    return () => undefined;
  }
  // The server bundle the process tests run, built once for the run: a file building it again while
  // another file's server starts from it removed chunks that server was loading.
  buildServerBundle();
  const postgres = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'ie-pglite-'));
  // From the repository's ready-made empty database when there is one for this PGlite (0.6 s, where
  // initdb takes 3.5 s on a quiet machine).
  const pglite = await PGlite.create({ loadDataDir: readReadyMade(readyMadeSource(installedPgliteVersion())) });
  project.provide('pgliteDump', await dumpOf(pglite, join(dir, 'empty.tar')));
  await startUp(inProcess(pglite), startOptions);
  project.provide('pgliteFreshDump', await dumpOf(pglite, join(dir, 'fresh.tar')));
  await pglite.close();
  const server = await openPostgres(postgres.url, { max: 1 });
  await server.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await server.close();
  const template = await openPostgres(postgres.url.replace(/\/postgres$/, `/${TEMPLATE_DATABASE}`), { max: 1 });
  await startUp(template, startOptions);
  await template.close();
  project.provide('postgresUrl', postgres.url);
  return () => {
    postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
