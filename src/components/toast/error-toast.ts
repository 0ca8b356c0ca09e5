// Turns any failure into the toast a person reads: typed errors from src/db carry their own
// title and plain message; anything else (a fault of this build) gets the vocabulary's plain
// sentence, its JavaScript message going to the console only.
import { isDataError } from '../../db/storage/errors';
import { ERRORS } from '../../shared/errors';
import type { ToastMessage } from './toast-context';

export function errorToast(error: unknown): ToastMessage {
  if (isDataError(error)) {
    return { title: error.title, description: error.message, variant: 'error' };
  }
  console.error('Unexpected failure', error);
  return { title: ERRORS.unexpected.title, description: ERRORS.unexpected.message, variant: 'error' };
}
