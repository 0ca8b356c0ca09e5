// The sentence a refused request body or operation gets from its zod issues.
import type { ZodError } from 'zod';
import { ERRORS } from '../../src/shared/errors';

/**
 * The first problem as a readable sentence. A rule of src/shared/validation.ts (a custom issue) is
 * already the sentence a person reads; any other names the field it is about.
 */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return ERRORS.invalid.message;
  if (issue.code === 'custom') return issue.message;
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  return `Invalid ${field}: ${issue.message}`;
}
