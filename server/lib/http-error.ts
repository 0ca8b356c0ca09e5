// The one error type routes throw: a code of the shared vocabulary (src/shared/errors.ts), its HTTP
// status and the sentence a person reads. The error handler (plugins/errors.ts) turns it into
// `{ error: { code, message } }`.
import { ERRORS, type WireErrorCode } from '../../src/shared/errors';

export class HttpError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: WireErrorCode,
    message: string = ERRORS[code].message,
    readonly headers: Record<string, string> = {},
    /** Fields the answer carries beside the sentence (a suspension's end and reason). */
    readonly details: { until?: number; reason?: string | null } = {},
  ) {
    super(message);
    this.statusCode = ERRORS[code].status;
  }
}

/** The refusal `code`, with the vocabulary's sentence unless a more precise one is given. */
export const refuse = (code: WireErrorCode, message?: string, headers?: Record<string, string>) => new HttpError(code, message, headers);

export const signedOut = () => refuse('signed_out');
