// The one error type routes throw: a status, a machine code and a sentence for a person. The error
// handler (plugins/errors.ts) turns it into `{ error: { code, message } }`.

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const signedOut = () => new HttpError(401, 'signed_out', 'Please sign in again.');
