// Fresh databases for the server tests: a PGlite cloned from the dump made once, or a new database
// on the throwaway PostgreSQL server. Each is migrated and seeded like a real start.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { Database } from '../../../server/db/storage/adapter';
import { openPglite } from '../../../server/db/storage/pglite';
import { openPostgres } from '../../../server/db/storage/postgres';
import { startUp } from '../../../server/db/storage/startup';

export type Backend = 'pglite' | 'postgres';
export const BACKENDS: Backend[] = ['pglite', 'postgres'];
export const ADMIN_EMAIL = 'admin@insightexchange.app';
export const ADMIN_PASSWORD = 'admin-test-password';

/** The URL of a new, empty database on the test PostgreSQL server. */
export async function newPostgresDatabase(): Promise<string> {
  const server = await openPostgres(inject('postgresUrl'), 1);
  const name = `t_${randomUUID().replace(/-/g, '')}`;
  await server.query(`CREATE DATABASE ${name}`);
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
  const db = await emptyDatabase(backend);
  await startUp(db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, log: () => {} });
  return db;
}
