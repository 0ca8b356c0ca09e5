// Whether this browser holds the app's database yet, asked without the data layer's code (Dexie): a
// browser that holds none has no account, no post and no draft, so its Sign In and the forum's first
// frame need none of that code (issue 64, item 2). Asking never creates the database.
import { DATABASE_NAME } from '../contracts';

/**
 * True when the database `name` exists in this browser; false when it does not, or when IndexedDB
 * is missing. A browser that cannot say (an error other than "none") answers true: the full data
 * layer then decides, as before.
 */
export async function databaseExists(name: string = DATABASE_NAME): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  if (typeof indexedDB.databases === 'function') {
    try {
      return (await indexedDB.databases()).some((database) => database.name === name);
    } catch {
      // Asked the other way below.
    }
  }
  // Opened without a version: an existing database opens as it is; a missing one asks for an
  // upgrade from version 0, which is aborted, so nothing is created.
  return new Promise<boolean>((resolve) => {
    let missing = false;
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(name);
    } catch {
      resolve(true);
      return;
    }
    request.onupgradeneeded = () => {
      missing = true;
      request.transaction?.abort();
    };
    request.onsuccess = () => {
      request.result.close();
      resolve(true);
    };
    request.onerror = () => resolve(!missing);
    request.onblocked = () => resolve(true);
  });
}
