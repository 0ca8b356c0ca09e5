// The one thin database adapter of the server: the same calls over the embedded PGlite and over a
// PostgreSQL server (porsager's `postgres`). Everything above it speaks plain SQL with $1 params.

/** Something that runs one SQL statement: the pool or a transaction. */
export interface Sql {
  /** Runs one statement with positional parameters and returns its rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

/** How a piece of work waits for the embedded engine's one connection. */
export interface Priority {
  /**
   * True for long, unhurried work (a search, a pull's page): it runs after every statement that
   * waits in the foreground (a like, a sign-in, the health check). PostgreSQL runs both alike.
   */
  background?: boolean;
}

/** A database to read from: one statement, or several in one transaction. */
export interface Reader extends Sql {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>, priority?: Priority): Promise<T>;
}

export interface Database extends Reader {
  readonly kind: 'pglite' | 'postgres';
  /** The same database, each statement run as background work (see Priority). */
  readonly background: Sql;
  /**
   * A streaming replica of it (REPLICA_URL), for reads that can tell whether it has replayed far
   * enough (a pull, a search: db/sync/replica.ts). Its transactions are read-only. Absent on PGlite
   * and without REPLICA_URL.
   */
  readonly replica?: Reader;
  /**
   * Calls `onPayload` for every NOTIFY on `channel` (from any connection); resolves once listening.
   * On PostgreSQL the listening session can be lost (the server restarted) and is opened again by
   * itself: `onRelisten` is called each time it listens again, since what was sent meanwhile was
   * never heard (never on PGlite, whose listening lives in this process).
   */
  listen(channel: string, onPayload: (payload: string) => void, onRelisten?: () => void): Promise<() => Promise<void>>;
  /** Closes every connection; pending work finishes first. */
  close(): Promise<void>;
}

/** The error the server reports (and exits on) when its database cannot be opened. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

/**
 * A database error as the server keeps (and logs) it: the engine's code, severity, routine and
 * the names of the constraint, table and column, with the message, but never the statement's
 * parameters (a new account's password hash, a session token's hash, an email) nor PostgreSQL's
 * `detail` ("Failing row contains (…)"), `where` or `hint`. PGlite's errors carry the parameters
 * as an enumerable `params`, postgres' as `parameters`, and both put row values in `detail`: so
 * the adapters throw this instead, and a logged `{ err }` can never hold them.
 */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
  readonly code?: string;
  readonly severity?: string;
  readonly routine?: string;
  readonly constraint?: string;
  readonly table?: string;
  readonly column?: string;
  /** The statement's text (placeholders only, never values). */
  readonly query?: string;

  constructor(source: Record<string, unknown>, message: string, stack: string | undefined, query?: string) {
    super(message);
    // PGlite names the fields as PostgreSQL's protocol does (constraint); postgres as constraint_name.
    const text = (...keys: string[]) => keys.map((key) => source[key]).find((value): value is string => typeof value === 'string');
    this.code = text('code');
    this.severity = text('severity');
    this.routine = text('routine');
    this.constraint = text('constraint', 'constraint_name');
    this.table = text('table', 'table_name');
    this.column = text('column', 'column_name');
    this.query = query;
    const frames = stack?.split('\n').filter((line) => /^\s+at /.test(line)) ?? [];
    this.stack = [`${this.name}: ${message}`, ...frames].join('\n');
  }
}

/** The texts of a statement's parameters, as they may appear in an engine's message. */
const parameterTexts = (params: readonly unknown[]): string[] =>
  params.flatMap((param) => {
    if (param === null || param === undefined) return [];
    if (typeof param === 'object') return [JSON.stringify(param)];
    return [String(param)];
  });

/** `message` without any parameter value: a quoted value taken from one ("… for type uuid: "…"") or a long one anywhere. */
function redactMessage(message: string, params: readonly unknown[]): string {
  const texts = parameterTexts(params);
  if (texts.length === 0) return message;
  let redacted = message.replace(/"((?:[^"]|"")+)"/g, (quoted, inner: string) =>
    texts.some((text) => text.includes(inner)) ? '"[redacted]"' : quoted,
  );
  for (const text of texts) if (text.length >= 4) redacted = redacted.split(text).join('[redacted]');
  return redacted;
}

/** True for an error the engine threw (it names a statement or a server-side severity), not one of ours. */
const fromEngine = (error: object) => 'query' in error || 'params' in error || 'parameters' in error || 'severity' in error;

/**
 * `error` as a DatabaseError without `params`' values (see DatabaseError). `always`: the error came
 * from running a statement; otherwise (a transaction's own errors) only an engine's error is
 * converted, so the server's own errors thrown inside a transaction pass as they are.
 */
export function safeDatabaseError(error: unknown, params: readonly unknown[] = [], always = true): unknown {
  if (error instanceof DatabaseError || typeof error !== 'object' || error === null) return error;
  if (!always && !fromEngine(error)) return error;
  const source = error as Record<string, unknown>;
  const message = typeof source.message === 'string' ? source.message : 'The database failed.';
  const query = typeof source.query === 'string' ? source.query : undefined;
  return new DatabaseError(source, redactMessage(message, params), typeof source.stack === 'string' ? source.stack : undefined, query);
}
