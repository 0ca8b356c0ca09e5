// Fresh databases for the server tests: a PGlite cloned from a dump made once, or a new database
// on the throwaway PostgreSQL server. A fresh one is a copy of the migrated, seeded database the
// global setup made by a real start (startUp); an empty one is not migrated.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { Database } from '../../../server/db/storage/adapter';
import { openPglite } from '../../../server/db/storage/pglite';
import { openPostgres } from '../../../server/db/storage/postgres';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TEMPLATE_DATABASE } from './database-names';

export type Backend = 'pglite' | 'postgres';
export const BACKENDS: Backend[] = ['pglite', 'postgres'];
export { ADMIN_EMAIL, ADMIN_PASSWORD };

/** The URL of a new database on the test PostgreSQL server: empty, or a copy of `template`. */
export async function newPostgresDatabase(template?: string): Promise<string> {
  const server = await openPostgres(inject('postgresUrl'), { max: 1 });
  const name = `t_${randomUUID().replace(/-/g, '')}`;
  await server.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await server.close();
  return inject('postgresUrl').replace(/\/postgres$/, `/${name}`);
}

/** An empty, unmigrated database of `backend`. */
export async function emptyDatabase(backend: Backend): Promise<Database> {
  if (backend === 'postgres') return openPostgres(await newPostgresDatabase());
  return openPglite({ loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]) });
}

/** A migrated, seeded database with the admin account (password ADMIN_PASSWORD). */
export async function freshDatabase(backend: Backend): Promise<Database> {
  if (backend === 'postgres') return openPostgres(await newPostgresDatabase(TEMPLATE_DATABASE));
  return openPglite({ loadDataDir: new Blob([readFileSync(inject('pgliteFreshDump'))]) });
}
