// Turns any failure into the toast a person reads: typed errors from src/db carry their own
// title and plain message; anything else gets a generic, honest one.
import { isDataError } from '../../db/storage/errors';
import type { ToastMessage } from './toast-context';

export function errorToast(error: unknown): ToastMessage {
  if (isDataError(error)) {
    return { title: error.title, description: error.message, variant: 'error' };
  }
  return {
    title: 'Something went wrong',
    description: error instanceof Error && error.message ? error.message : 'Please try again.',
    variant: 'error',
  };
}
