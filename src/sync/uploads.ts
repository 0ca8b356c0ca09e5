// The upload step of a push (issue 42): before an operation that names files is sent, each file
// this device keeps that the server does not hold yet is uploaded (PUT /api/attachments/:sha256),
// in the outbox's order. A file is named by its SHA-256, so an upload retried after a lost answer
// stores nothing twice; a file marked sent is never sent again.
import { filesToUpload, markUploaded } from '../db/files/files';
import type { OutboxRow } from '../db/storage/schema';
import type { DataError } from '../db/storage/errors';
import type { Op } from '../shared/protocol';
import { isServerError, type SyncApi } from './api';

/** The addresses of the files an operation names (a new post's or reply's attachments). */
export function filesNamedBy(op: Op): string[] {
  if (op.type !== 'create' && op.type !== 'reply') return [];
  const list = op.type === 'create' ? (op.post as { attachments?: unknown }).attachments : op.attachments;
  return Array.isArray(list)
    ? list.flatMap((item) => {
        const sha256 = item !== null && typeof item === 'object' ? (item as { sha256?: unknown }).sha256 : undefined;
        return typeof sha256 === 'string' ? [sha256] : [];
      })
    : [];
}

/** The first operation of a batch whose file the server would not take, and its answer (a 4xx). */
export interface UploadRefused {
  index: number;
  error: DataError;
}

/**
 * Uploads what the operations of `batch` need, in order. Stops at the first operation whose file the
 * server refused (too large, not a type it takes, over the member's space or daily limit) and says
 * which; an unreachable or failing server throws (the push backs off, as for the operations).
 */
export async function uploadFilesFor(batch: readonly OutboxRow[], api: SyncApi): Promise<UploadRefused | undefined> {
  for (const [index, row] of batch.entries()) {
    const named = filesNamedBy(row.op);
    if (named.length === 0 || !api.upload) continue;
    for (const file of await filesToUpload(named)) {
      try {
        await api.upload(file.sha256, file.blob, file.name);
      } catch (error) {
        if (isServerError(error) && error.status! < 500) return { index, error };
        throw error;
      }
      await markUploaded(file.sha256);
    }
  }
  return undefined;
}
