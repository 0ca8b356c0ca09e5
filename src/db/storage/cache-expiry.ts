// Workbox's expiry records of the attachment cache (the service worker's ExpirationPlugin, src/sw/sw.ts):
// IndexedDB `workbox-expiration`, one record per cached file, `<cache>|<absolute URL>`, with when it
// was last used. A file's address is its SHA-256, so a record left behind says which file was opened
// and when: whatever takes files out of the cache takes their records too. Raw IndexedDB (the store is
// Workbox's, not the app's Dexie database); the database is never made here (Workbox makes it, with
// its store, at its first record).

const EXPIRY_DATABASE = 'workbox-expiration';
const EXPIRY_STORE = 'cache-entries';

/** The expiry records of `cacheName`: of the paths `paths`, or (`'all'`) every one of that cache. */
export async function dropExpiryRecords(cacheName: string, paths: readonly string[] | 'all'): Promise<void> {
  if (typeof indexedDB === 'undefined' || typeof location === 'undefined' || paths.length === 0) return;
  const database = await new Promise<IDBDatabase | null>((resolve) => {
    const request = indexedDB.open(EXPIRY_DATABASE);
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onsuccess = () => resolve(request.result);
    request.onerror = (event) => {
      event.preventDefault();
      resolve(null);
    };
    request.onblocked = () => resolve(null);
  });
  if (!database) return;
  try {
    if (!database.objectStoreNames.contains(EXPIRY_STORE)) return;
    await new Promise<void>((resolve) => {
      const transaction = database.transaction(EXPIRY_STORE, 'readwrite');
      const store = transaction.objectStore(EXPIRY_STORE);
      if (paths === 'all') {
        const cursor = store.index('cacheName').openKeyCursor(cacheName);
        cursor.onsuccess = () => {
          if (!cursor.result) return;
          store.delete(cursor.result.primaryKey);
          cursor.result.continue();
        };
      } else {
        for (const path of paths) store.delete(`${cacheName}|${new URL(path, location.href).href}`);
      }
      transaction.oncomplete = () => resolve();
      transaction.onabort = () => resolve();
    });
  } finally {
    database.close();
  }
}
