// The error thrown by src/db (and src/sync): a code of the shared vocabulary with its toast title
// and the plain sentence a person reads. Screens show `title` and `message`; the UI tells kinds
// apart with isDataError(error, code). Raw Dexie/DOM failures are mapped here (toDataError).

import { messageOf, titleOf, type ErrorCode } from '../../shared/errors';
import type { Problem } from '../../shared/text-checks';
import { isDatabaseOutdated } from './outdated';

/** What may go with a data error besides its code. */
export interface DataErrorDetails {
  /** A more precise sentence than the vocabulary's (a rule's, or the server's own). */
  message?: string;
  /** A more precise toast title than the vocabulary's (a rule's). */
  title?: string;
  /** The post the error is about. */
  postId?: number;
  /** The HTTP status, when the server answered. */
  status?: number;
  /** When the server said to try again (its Retry-After, in ms): a request over a limit. */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * The one error type of the device: a code of the shared vocabulary (src/shared/errors.ts), its
 * toast title and sentence. A code this build does not know (a newer server's) keeps the
 * server's sentence under the generic title. Screens tell kinds apart with isDataError(error, code).
 */
export class DataError extends Error {
  // Not 'DataError': Dexie re-wraps an error with a DOMException's name (DataError is one) thrown in a transaction.
  override readonly name = 'InsightDataError';
  readonly code: ErrorCode | (string & {});
  /** The toast title that goes with this error. */
  readonly title: string;
  readonly postId?: number;
  readonly status?: number;
  readonly retryAfterMs?: number;
  constructor(code: ErrorCode | (string & {}), details: DataErrorDetails = {}) {
    super(
      details.message ?? messageOf(code, 'Something went wrong. Please try again.'),
      details.cause ? { cause: details.cause } : undefined,
    );
    this.code = code;
    this.title = details.title ?? titleOf(code);
    if (details.postId !== undefined) this.postId = details.postId;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

/** The error of a broken input rule (src/shared/validation.ts): its own title and sentence. */
export function invalidInput(problem: Problem): DataError {
  return new DataError(problem.code, { title: problem.title, message: problem.message });
}

/**
 * True when `error` is a data error (of that `code`, when given): the one check the UI uses,
 * instead of guessing from an error's name or fields.
 */
export function isDataError(error: unknown, code?: ErrorCode): error is DataError {
  return error instanceof DataError && (code === undefined || error.code === code);
}

/** True when work was cancelled through its AbortSignal (the person pressed Cancel): nothing to report. */
export function isCancelled(error: unknown): boolean {
  return typeof DOMException !== 'undefined' && error instanceof DOMException && error.name === 'AbortError';
}

const UNAVAILABLE = new Set([
  'MissingAPIError',
  'OpenFailedError',
  'InvalidStateError',
  'SecurityError',
  'UnknownError',
  'NotAllowedError',
]);

/** The names of an error and of the errors Dexie wrapped inside it, outermost first. */
function errorNames(error: unknown): string[] {
  const names: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const name = (current as { name?: unknown }).name;
    if (typeof name === 'string') names.push(name);
    current = (current as { inner?: unknown }).inner;
  }
  return names;
}

/** Runs Dexie work and rethrows any failure as the typed error a screen can show (the one way to map data errors). */
export async function withDataErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toDataError(error);
  }
}

/** Maps a raw Dexie/DOM failure to the typed error a screen knows how to show. */
export function toDataError(error: unknown): unknown {
  if (error instanceof DataError) return error;
  const names = errorNames(error);
  if (names.includes('QuotaExceededError')) return new DataError('storage_full');
  if (names.includes('VersionError')) return new DataError('database_outdated');
  if (names.some((name) => UNAVAILABLE.has(name))) return new DataError('storage_unavailable', { cause: error });
  if (names.includes('DatabaseClosedError')) {
    return isDatabaseOutdated() ? new DataError('database_outdated') : new DataError('storage_unavailable', { cause: error });
  }
  return error;
}
