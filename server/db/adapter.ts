// The one thin database adapter of the server: the same calls over the embedded PGlite and over a
// PostgreSQL server (porsager's `postgres`). Everything above it speaks plain SQL with $1 params.

/** Something that runs one SQL statement: the pool or a transaction. */
export interface Sql {
  /** Runs one statement with positional parameters and returns its rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Calls `onPayload` for every NOTIFY on `channel` (from any connection); resolves once listening. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Closes every connection; pending work finishes first. */
  close(): Promise<void>;
}

/** The error the server reports (and exits on) when its database cannot be opened. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}
