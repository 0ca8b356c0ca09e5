// A database stand-in for tests of the HTTP layer alone (static files, headers): it answers the
// change head with 0 and never notifies, so no engine has to start.
import type { Database } from '../../../server/db/storage/adapter';

const query = async <T>() => [{ seq: 0 }] as T[];

export const stubDatabase = (): Database => ({
  kind: 'pglite',
  query,
  background: { query },
  transaction: () => Promise.reject(new Error('no database in this test')),
  listen: async () => async () => {},
  close: async () => {},
});
