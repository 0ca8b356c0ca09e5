// Keeps the saved posts' files in their cache (db/saved/saved-files.ts) on a connected device: a
// second after the device's data last changed (a save, an unsave, a pulled post or reply), one
// pass at a time, only online and where Cache Storage exists.
import { SAVED_ATTACHMENT_CACHE } from '../db/contracts';
import { keepSavedFiles } from '../db/saved/saved-files';

const SETTLE_MS = 1_000;

/** Returns the function to call after each change; `email` names the signed-in member (or none). */
export function savedFilesKeeper(email: () => string | undefined): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let again = false;
  const pass = async () => {
    const member = email();
    if (!member || !navigator.onLine || typeof caches === 'undefined') return;
    running = true;
    try {
      await keepSavedFiles(member, await caches.open(SAVED_ATTACHMENT_CACHE));
    } catch {
      // Cache Storage refused (private mode, quota): the recent-files cache still serves them.
    } finally {
      running = false;
    }
    if (again) {
      again = false;
      request();
    }
  };
  const request = () => {
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => void pass(), SETTLE_MS);
  };
  return request;
}
