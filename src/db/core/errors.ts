// Typed errors thrown by src/db. Screens catch them and show the toast that matches `title`;
// the message is the plain sentence a person reads. The UI tells them apart with isDataError.

import { isDatabaseOutdated } from './outdated';

export class DataError extends Error {
  /** The toast title that goes with this error. */
  readonly title: string;
  constructor(title: string, message: string) {
    super(message);
    this.name = 'DataError';
    this.title = title;
  }
}

/** Input that breaks a rule of product.md §5 (or a length limit); `message` is the exact catalogue text. */
export class ValidationError extends DataError {
  override readonly name: string = 'ValidationError';
}

export class AuthError extends DataError {
  override readonly name: string = 'AuthError';
  constructor(message = 'Incorrect email or password.') {
    super('Error', message);
  }
}

export class NotSignedInError extends DataError {
  override readonly name: string = 'NotSignedInError';
  constructor() {
    super('Error', 'Please sign in to continue.');
  }
}

export class NotAuthorizedError extends DataError {
  override readonly name: string = 'NotAuthorizedError';
  constructor() {
    super('Not allowed', 'Only an admin can review posts.');
  }
}

/** A failure about one post; `postId` says which. */
abstract class PostError extends DataError {
  constructor(
    readonly postId: number,
    title: string,
    message: string,
  ) {
    super(title, message);
  }
}

export class PostNotFoundError extends PostError {
  override readonly name: string = 'PostNotFoundError';
  constructor(postId: number) {
    super(postId, 'Error', 'That post no longer exists.');
  }
}

export class PostNotApprovedError extends PostError {
  override readonly name: string = 'PostNotApprovedError';
  constructor(postId: number) {
    super(postId, 'Error', 'Only approved posts can be liked.');
  }
}

export class AlreadyReviewedError extends PostError {
  override readonly name: string = 'AlreadyReviewedError';
  constructor(postId: number) {
    super(postId, 'Already reviewed', 'This post was already reviewed');
  }
}

export class StorageFullError extends DataError {
  override readonly name: string = 'StorageFullError';
  constructor() {
    super(
      'Storage is full',
      'This device has no room left for Insight Exchange. Free up space (or export a backup and clear old data), then try again. Nothing was saved.',
    );
  }
}

export class StorageUnavailableError extends DataError {
  override readonly name: string = 'StorageUnavailableError';
  constructor(override readonly cause?: unknown) {
    super('Storage unavailable', 'This browser is not letting Insight Exchange store data (private browsing or disabled site data).');
  }
}

export class DatabaseOutdatedError extends DataError {
  override readonly name: string = 'DatabaseOutdatedError';
  constructor() {
    super('Update needed', 'Insight Exchange was updated in another tab. Reload to continue.');
  }
}

/** The kinds of data error a screen may need to tell apart. */
const KINDS = {
  validation: ValidationError,
  auth: AuthError,
  'not-signed-in': NotSignedInError,
  'not-authorized': NotAuthorizedError,
  'not-found': PostNotFoundError,
  'not-approved': PostNotApprovedError,
  'already-reviewed': AlreadyReviewedError,
  quota: StorageFullError,
  unavailable: StorageUnavailableError,
  outdated: DatabaseOutdatedError,
} as const;

export type DataErrorKind = keyof typeof KINDS;

/**
 * True when `error` is a data error from src/db (of that `kind`, when given): the one check the UI
 * uses, instead of guessing from an error's name or fields.
 */
export function isDataError(error: unknown, kind?: DataErrorKind): error is DataError {
  return kind === undefined ? error instanceof DataError : error instanceof KINDS[kind];
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
  if (names.includes('QuotaExceededError')) return new StorageFullError();
  if (names.includes('VersionError')) return new DatabaseOutdatedError();
  if (names.some((name) => UNAVAILABLE.has(name))) return new StorageUnavailableError(error);
  if (names.includes('DatabaseClosedError')) return isDatabaseOutdated() ? new DatabaseOutdatedError() : new StorageUnavailableError(error);
  return error;
}
