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

/** Where a URL points, without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return 'an invalid DATABASE_URL';
  }
}

/** Connects and checks the server answers; throws DatabaseOpenError when it does not. */
export async function openPostgres(url: string, max = 10): Promise<Database> {
  let sql: postgres.Sql;
  try {
    sql = postgres(url, { max, onnotice: () => {}, connect_timeout: 10 });
    await sql`select 1`;
  } catch (error) {
    throw new DatabaseOpenError(`PostgreSQL at ${describeUrl(url)} cannot be reached: ${(error as Error).message}`);
  }
  const pool = wrap(sql);
  return {
    kind: 'postgres',
    ...pool,
    background: pool,
    transaction: (fn) =>
      (sql.begin((tx) => fn(wrap(tx))) as Promise<never>).catch((error: unknown) => {
        throw safeDatabaseError(error, [], false);
      }),
    listen: async (channel, onPayload) => {
      const { unlisten } = await sql.listen(channel, onPayload);
      return unlisten;
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
