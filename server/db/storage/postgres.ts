// A PostgreSQL server through porsager's `postgres` client (a small pool), selected by DATABASE_URL.
// LISTEN uses a client of its own (a dedicated session), so NOTIFYs from other instances arrive here.
import postgres from 'postgres';
import { DatabaseOpenError, safeDatabaseError, type Database, type Reader, type Sql } from './adapter';

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

/**
 * A Reader: single statements on `sql`, transactions through `begin` on `transactions` (read-only on
 * a replica).
 */
function reader(
  sql: postgres.Sql,
  { transactions = sql, readOnly = false }: { transactions?: postgres.Sql; readOnly?: boolean } = {},
): Reader {
  return {
    ...wrap(sql),
    transaction: (fn) =>
      (
        (readOnly ? transactions.begin('read only', (tx) => fn(wrap(tx))) : transactions.begin((tx) => fn(wrap(tx)))) as Promise<never>
      ).catch((error: unknown) => {
        throw safeDatabaseError(error, [], false);
      }),
  };
}

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
 * Each client's back-off, in seconds, after its `retries`th failed attempt to connect: 50 ms
 * doubling up to 1 s. The client's own grows to 10–20 s after seven failures, and a statement
 * meeting a closed connection waits it out: a primary away for 10 s was listened to again only
 * 15 s after it came back (measured here; issue 64's cluster run then missed a like on the live
 * stream). An attempt a second per connection costs a refused connection.
 */
export const reconnectBackoff = (retries: number): number => Math.min(0.05 * 2 ** Math.max(0, retries - 1), 1);

/**
 * Connects and checks the server answers; throws DatabaseOpenError when it does not. Behind a
 * transaction pooler (PgBouncer's transaction mode) `prepare: false` (a prepared statement lives in
 * one server session, which the pooler hands to another client after the transaction) and
 * `listenUrl`, a direct connection to the primary for LISTEN (a listening session outlives any
 * transaction, so it cannot go through the pooler).
 *
 * Behind the pooler, single statements also go one at a time on a connection (`max_pipeline: 0`):
 * PgBouncer before 1.21 hands the server connection back at the first "ready for query" outside a
 * transaction, so a statement the client pipelined behind another was answered to nobody (the
 * bench's 504s, PgBouncer's "got packet from server when not linked") or bound on another client's
 * server connection ("malformed array literal"). Transactions keep a client of their own that
 * pipelines (inside a transaction PgBouncer holds the link; and the client's `begin` cannot start
 * on a connection that takes one statement at a time).
 */
export async function openPostgres(
  url: string,
  options: { max?: number; listenUrl?: string; prepare?: boolean; replicaUrl?: string } = {},
): Promise<Database> {
  const { max = 10, listenUrl, prepare = true, replicaUrl } = options;
  const clientOptions = { max, prepare, onnotice: () => {}, connect_timeout: 10, backoff: reconnectBackoff };
  let sql: postgres.Sql;
  let transactions: postgres.Sql;
  let listener: postgres.Sql;
  try {
    // max_pipeline is an option of the client that its types do not list: passed from a variable.
    const oneAtATime = { ...clientOptions, max_pipeline: 0 };
    sql = postgres(url, prepare ? clientOptions : oneAtATime);
    transactions = prepare ? sql : postgres(url, clientOptions);
    await sql`select 1`;
  } catch (error) {
    throw new DatabaseOpenError(`PostgreSQL at ${describeUrl(url)} cannot be reached: ${(error as Error).message}`);
  }
  try {
    listener = postgres(listenUrl ?? url, { max: 1, onnotice: () => {}, connect_timeout: 10, backoff: reconnectBackoff });
    if (listenUrl) await listener`select 1`;
  } catch (error) {
    await Promise.all([sql.end({ timeout: 1 }), transactions !== sql && transactions.end({ timeout: 1 })]);
    throw new DatabaseOpenError(`PostgreSQL at ${describeUrl(listenUrl ?? url)} cannot be reached: ${(error as Error).message}`);
  }
  // The replica is not asked at start: a replica that is down only sends pulls to the primary.
  const replica = replicaUrl ? postgres(replicaUrl, { max, onnotice: () => {}, connect_timeout: 2, backoff: reconnectBackoff }) : undefined;
  const pool = reader(sql, { transactions });
  return {
    kind: 'postgres',
    ...pool,
    background: wrap(sql),
    ...(replica ? { replica: reader(replica, { readOnly: true }) } : {}),
    listen: async (channel, onPayload, onRelisten) => {
      // The client listens again by itself once its session is back, calling this each time.
      let listened = false;
      const { unlisten } = await listener.listen(channel, onPayload, () => {
        if (listened) onRelisten?.();
        listened = true;
      });
      return unlisten;
    },
    // The clients close together: after PgBouncer or the primary restarted, a connection whose
    // first statements were refused never finishes its end, and each client then waits its 5 s
    // (one after another, a SIGTERM took 10 s and more; together, 5 s at most).
    close: async () => {
      await Promise.all([
        listener.end({ timeout: 5 }),
        replica?.end({ timeout: 5 }),
        transactions !== sql && transactions.end({ timeout: 5 }),
        sql.end({ timeout: 5 }),
      ]);
    },
  };
}
