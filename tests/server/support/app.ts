// A test server: the app built around a fresh database of one backend, closed with both.
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../../server/app';
import type { Database } from '../../../server/db/storage/adapter';
import { ADMIN_EMAIL, freshDatabase, type Backend } from './databases';
import { RELAXED_LIMITS } from './limits';
import { registerDatabase } from './client';

export interface TestServer {
  app: FastifyInstance;
  db: Database;
  close(): Promise<void>;
}

/** Builds the app on `db` (or a fresh database of `backend`). */
export async function testServer(backend: Backend, options: Partial<AppOptions> = {}, db?: Database): Promise<TestServer> {
  const database = db ?? (await freshDatabase(backend));
  // Member limits relaxed unless a test gives its own (the limit tests: DEFAULT_LIMITS).
  const app = await buildApp({ db: database, adminEmail: ADMIN_EMAIL, memberLimits: RELAXED_LIMITS, ...options });
  registerDatabase(app, database);
  return {
    app,
    db: database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** Opens a real port for `server` on loopback (never another address) and returns its base URL. */
export async function listen(server: TestServer): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}
