// A PostgreSQL server through porsager's `postgres` client (a small pool), selected by DATABASE_URL.
// LISTEN uses the client's own dedicated connection, so NOTIFYs from other instances arrive here.
import postgres from 'postgres';
import { DatabaseOpenError, safeDatabaseError, type Database, type Sql } from './adapter';

type Client = postgres.Sql | postgres.TransactionSql;

// The client's errors hold the statement's parameters (`parameters`, `args`) and PostgreSQL's
// `detail` holds row values: they are thrown as a DatabaseError without them (see adapter.ts).
export const wrap = (client: Client): Sql => ({
  query: async <T>(text: string, params: unknown[] = []) => {
    try {
      return (await client.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as unknown as T[];
    } catch (error) {
      throw safeDatabaseError(error, params);
    }
  },
});

/** SQLSTATE classes and client codes of a connection refused or lost (not a statement's own error). */
const LOST_CONNECTION =
  /^(08|57P0)|^(CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|CONNECT_TIMEOUT|ECONNREFUSED|ECONNRESET|EPIPE)$/;

/**
 * Whether `reason` is a connection to PostgreSQL refused or lost. The client fetches the array types
 * on each new connection without waiting on that promise (postgres/src/connection.js, `return
 * fetchArrayTypes()` in its ready handler): when the database refuses it then (a restart, PgBouncer's
 * server_login_retry), that rejection is unhandled, while the query that asked for the connection
 * gets the same error and its request answers 503. server.ts logs such a rejection and goes on.
 */
export function isLostConnection(reason: unknown): boolean {
  const code = (reason as { code?: unknown } | null)?.code;
  return reason instanceof Error && typeof code === 'string' && LOST_CONNECTION.test(code);
}

/** Where a URL points, without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return 'an invalid DATABASE_URL';
  }
}

/**
 * Connects and checks the server answers; throws DatabaseOpenError when it does not. Behind a
 * transaction pooler (PgBouncer's transaction mode) `prepare: false` (a prepared statement lives in
 * one server session, which the pooler hands to another client after the transaction) and
 * `listenUrl`, a direct connection to the primary for LISTEN (a listening session outlives any
 * transaction, so it cannot go through the pooler).
 */
export async function openPostgres(
  url: string,
  options: { max?: number; listenUrl?: string; prepare?: boolean; replicaUrl?: string } = {},
): Promise<Database> {
  const { max = 10, listenUrl, prepare = true, replicaUrl } = options;
  let sql: postgres.Sql;
  let listener: postgres.Sql;
  try {
    sql = postgres(url, { max, prepare, onnotice: () => {}, connect_timeout: 10 });
    await sql`select 1`;
  } catch (error) {
    throw new DatabaseOpenError(`PostgreSQL at ${describeUrl(url)} cannot be reached: ${(error as Error).message}`);
  }
  try {
    listener = listenUrl ? postgres(listenUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 }) : sql;
    if (listener !== sql) await listener`select 1`;
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw new DatabaseOpenError(`PostgreSQL at ${describeUrl(listenUrl ?? url)} cannot be reached: ${(error as Error).message}`);
  }
  // The replica is not asked at start: a replica that is down only sends pulls to the primary.
  const replica = replicaUrl ? postgres(replicaUrl, { max, onnotice: () => {}, connect_timeout: 2 }) : undefined;
  const pool = wrap(sql);
  return {
    kind: 'postgres',
    ...pool,
    background: pool,
    ...(replica ? { replica: wrap(replica) } : {}),
    transaction: (fn) =>
      (sql.begin((tx) => fn(wrap(tx))) as Promise<never>).catch((error: unknown) => {
        throw safeDatabaseError(error, [], false);
      }),
    listen: async (channel, onPayload) => {
      const { unlisten } = await listener.listen(channel, onPayload);
      return unlisten;
    },
    close: async () => {
      if (listener !== sql) await listener.end({ timeout: 5 });
      await replica?.end({ timeout: 5 });
      await sql.end({ timeout: 5 });
    },
  };
}
