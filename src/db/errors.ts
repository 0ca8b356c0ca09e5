// Typed errors thrown by src/db. Screens catch them and show the toast that matches `title`;
// the message is the plain sentence a person reads.

export class DataError extends Error {
  /** The toast title that goes with this error. */
  readonly title: string;
  constructor(title: string, message: string) {
    super(message);
    this.name = new.target.name;
    this.title = title;
  }
}

/** Input that breaks a rule of SPEC §5 (or a length limit); `message` is the exact catalogue text. */
export class ValidationError extends DataError {}

export class AuthError extends DataError {
  constructor(message = 'Incorrect email or password.') {
    super('Error', message);
  }
}

export class NotSignedInError extends DataError {
  constructor() {
    super('Error', 'Please sign in to continue.');
  }
}

export class NotAuthorizedError extends DataError {
  constructor() {
    super('Not allowed', 'Only an admin can review posts.');
  }
}

export class PostNotFoundError extends DataError {
  constructor(readonly postId: number) {
    super('Error', 'That post no longer exists.');
  }
}

export class PostNotApprovedError extends DataError {
  constructor(readonly postId: number) {
    super('Error', 'Only approved posts can be liked.');
  }
}

export class AlreadyReviewedError extends DataError {
  constructor(readonly postId: number) {
    super('Already reviewed', 'This post was already reviewed');
  }
}

export class StorageFullError extends DataError {
  constructor() {
    super(
      'Storage is full',
      'This device has no room left for Insight Exchange. Free up space (or export a backup and clear old data), then try again. Nothing was saved.',
    );
  }
}

export class StorageUnavailableError extends DataError {
  constructor(override readonly cause?: unknown) {
    super(
      'Storage unavailable',
      'This browser is not letting Insight Exchange store data (private browsing or disabled site data).',
    );
  }
}

export class DatabaseOutdatedError extends DataError {
  constructor() {
    super('Update needed', 'Insight Exchange was updated in another tab. Reload to continue.');
  }
}

/** Maps a raw Dexie/DOM failure to the typed error a screen knows how to show. */
export function toDataError(error: unknown): unknown {
  if (error instanceof DataError) return error;
  const name = errorName(error);
  if (name === 'QuotaExceededError') return new StorageFullError();
  if (name === 'DatabaseClosedError' || name === 'VersionError') return new DatabaseOutdatedError();
  if (name === 'MissingAPIError' || name === 'InvalidStateError' || name === 'OpenFailedError' || name === 'SecurityError') {
    return new StorageUnavailableError(error);
  }
  return error;
}

function errorName(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const own = (error as { name?: unknown }).name;
  const inner = (error as { inner?: { name?: unknown } }).inner?.name;
  // Dexie wraps the DOM error; either name tells what really happened.
  if (inner === 'QuotaExceededError') return inner;
  return typeof own === 'string' ? own : undefined;
}
