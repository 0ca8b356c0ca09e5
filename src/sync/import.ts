// Sends an admin's import to the server on a connected device: after the local merge, the posts
// are queued as operations in chunks (one transaction each) and pushed chunk by chunk, with
// progress; a cancel stops between chunks, so only whole chunks are ever sent. The file's replies
// are not sent: the server takes a reply only from its own author, on an approved post, so on a
// connected device importPosts checks them and skips them (src/db/posts/backup.ts).

import { readBackup } from '../db/posts/backup';
import { readStoredSession } from '../db/members/session';
import { queueImportedChunk } from '../db/sync/import-ops';
import { getRunningEngine } from './start';

export const IMPORT_SEND_CHUNK = 100;

export interface SendProgress {
  done: number;
  total: number;
}

export interface SendResult {
  sent: number;
  cancelled: boolean;
}

/** Queues and pushes the file's posts in chunks; resolves with how many went out (0 on a local-only device). */
export async function sendImportToServer(
  file: Blob,
  options: { signal?: AbortSignal; onProgress?: (progress: SendProgress) => void } = {},
): Promise<SendResult> {
  const engine = getRunningEngine();
  const session = readStoredSession();
  if (!engine || !session) return { sent: 0, cancelled: false };
  const { posts } = readBackup(await file.text());
  const result: SendResult = { sent: 0, cancelled: false };
  options.onProgress?.({ done: 0, total: posts.length });
  for (let start = 0; start < posts.length; start += IMPORT_SEND_CHUNK) {
    if (options.signal?.aborted) {
      result.cancelled = true;
      break;
    }
    const chunk = posts.slice(start, start + IMPORT_SEND_CHUNK);
    result.sent += await queueImportedChunk(chunk, session);
    await engine.sync();
    options.onProgress?.({ done: Math.min(posts.length, start + chunk.length), total: posts.length });
  }
  return result;
}
