// Work that meets PostgreSQL unreachable (PgBouncer or the primary restarting: a connection refused
// or lost, "the database system is shutting down", PgBouncer's failed server login) is tried again
// inside the server, a little later each time, for up to REACHABLE_WITHIN_MS in all per request
// (the session's lookup and the route's steps share the bound), instead of answering 503 at once
// (issue 64). Only work that is safe to run twice is given to it: an operation
// (its op id makes a second run answer `duplicate`, db/ops/apply.ts), reads, and the session's
// lookup. Past the bound the last error goes on, and the request answers 503 database_unavailable,
// which the device retries. The embedded engine has no connection to lose: its work runs once.
import type { Database } from '../db/storage/adapter';
import { isLostConnection } from '../db/storage/postgres';

/** How long one request keeps trying to reach the database, in all, before it answers 503. */
export const REACHABLE_WITHIN_MS = 10_000;
/** The first wait before trying again; each next one twice as long, up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs work on the database, again while its connection is refused or lost, within one bound. */
export type Patient = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * A runner for one request's steps on `db`: each is run again while it fails with a lost or refused
 * connection to PostgreSQL, until `withinMs` has passed since the request's first such failure (one
 * bound for all its steps); then that error is thrown.
 */
export function reachableWithin(db: Pick<Database, 'kind'>, withinMs = REACHABLE_WITHIN_MS): Patient {
  let deadline: number | undefined;
  return async (work) => {
    for (let wait = RETRY_FIRST_MS; ; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
      try {
        return await work();
      } catch (error) {
        if (db.kind !== 'postgres' || !isLostConnection(error)) throw error;
        deadline ??= Date.now() + withinMs;
        const left = deadline - Date.now();
        if (left <= 0) throw error;
        await sleep(Math.min(wait, left));
      }
    }
  };
}

/**
 * Each request's one runner on `db` (ServerContext.patiently): the session's lookup and the route's
 * steps share its bound.
 */
export function patientRequests(db: Pick<Database, 'kind'>, withinMs = REACHABLE_WITHIN_MS): (request: object) => Patient {
  const runners = new WeakMap<object, Patient>();
  return (request) => {
    let runner = runners.get(request);
    if (!runner) runners.set(request, (runner = reachableWithin(db, withinMs)));
    return runner;
  };
}
