// The upload step of a push (issue 42): before an operation that names files is sent, each file
// this device keeps that the server does not hold yet is uploaded (PUT /api/attachments/:sha256),
// in the outbox's order. A file is named by its SHA-256, so an upload retried after a lost answer
// stores nothing twice; a file sent for this member is not sent again within the day (after that,
// the server may have collected it: it goes again, and stores nothing twice either).
import { filesToUpload, markUploaded } from '../db/files/files';
import { filesNamedBy } from '../db/ops/files-named';
import type { OutboxRow } from '../db/storage/schema';
import type { DataError } from '../db/storage/errors';
import { isServerError, type SyncApi } from './api';

/**
 * A refusal of the file itself (400, 413, 415), the member's daily limit (429 slow_down) or their
 * silence (403 silenced: the server would refuse the operation so too), not of the session or the server.
 */
const fileRefused = (error: unknown): error is DataError =>
  isServerError(error) &&
  (error.status === 400 || error.status === 413 || error.status === 415 || error.code === 'slow_down' || error.code === 'silenced');

/** The first operation of a batch whose file the server would not take, and its answer (a 4xx). */
export interface UploadRefused {
  index: number;
  error: DataError;
}

/**
 * Uploads what the operations of `batch` need, in order. Stops at the first operation whose file the
 * server refused (too large, not a type it takes, over the member's space or daily limit, silenced) and says
 * which; an unreachable or failing server throws (the push backs off, as for the operations).
 */
export async function uploadFilesFor(batch: readonly OutboxRow[], api: SyncApi): Promise<UploadRefused | undefined> {
  for (const [index, row] of batch.entries()) {
    const named = filesNamedBy(row.op);
    if (named.length === 0 || !api.upload) continue;
    for (const file of await filesToUpload(row.email, named)) {
      try {
        await api.upload(file.sha256, file.blob, file.name);
      } catch (error) {
        // The file itself was refused (malformed, too large, a type the server does not take), is
        // over the member's daily limit, or the member is silenced: its operation is answered for. Anything else (signed out,
        // suspended, a busy or failing server) is the push's to handle, and the operation waits.
        if (fileRefused(error)) return { index, error };
        throw error;
      }
      await markUploaded(file.sha256, row.email);
    }
  }
  return undefined;
}
