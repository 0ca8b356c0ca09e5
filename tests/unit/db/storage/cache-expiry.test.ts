// @vitest-environment happy-dom
// Workbox's expiry records name the cached files (`insight-attachments|<URL of the file's SHA-256>`,
// with when each was last used): a storage audit found the records of a private space's files left
// after the member lost it, and after a sign-out. Whatever takes files out of the cache takes theirs.
import { afterEach, describe, expect, it } from 'vitest';
import { dropExpiryRecords } from '../../../../src/db/storage/cache-expiry';
import { ATTACHMENT_CACHE } from '../../../../src/db/contracts';
import { attachmentPath } from '../../../../src/db/saved/saved-files';
import { CacheTimestampsModel } from 'workbox-expiration/models/CacheTimestampsModel.js';

const request = <T>(of: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    of.onsuccess = () => resolve(of.result);
    of.onerror = () => reject(of.error);
  });

/** Records written by Workbox's own model (what the service worker's ExpirationPlugin runs), not by our formula. */
async function workboxRecords(cacheName: string, shas: string[]): Promise<void> {
  const model = new CacheTimestampsModel(cacheName);
  for (const sha of shas) await model.setTimestamp(attachmentPath(sha), 1);
  // Its connection closed, as a service worker's is when it stops (else the database cannot be deleted after).
  (model as unknown as { _db: { close: () => void } | null })._db?.close();
}

async function recordIds(): Promise<string[]> {
  const database = await request(indexedDB.open('workbox-expiration'));
  const ids = await request(database.transaction('cache-entries').objectStore('cache-entries').getAllKeys());
  database.close();
  return ids.map(String).sort();
}

const databases = async () => (await indexedDB.databases()).map((one) => one.name);
const idOf = (cache: string, sha: string) => `${cache}|${new URL(attachmentPath(sha), location.href).href}`;
const [PRIVATE, OTHER] = ['a'.repeat(64), 'b'.repeat(64)];

afterEach(async () => {
  await request(indexedDB.deleteDatabase('workbox-expiration'));
});

describe('the service worker’s expiry records', () => {
  it('of the files taken out go; another file’s stay', async () => {
    await workboxRecords(ATTACHMENT_CACHE, [PRIVATE, OTHER]);
    expect(await recordIds()).toEqual([idOf(ATTACHMENT_CACHE, PRIVATE), idOf(ATTACHMENT_CACHE, OTHER)]);
    await dropExpiryRecords(ATTACHMENT_CACHE, [attachmentPath(PRIVATE)]);
    expect(await recordIds()).toEqual([idOf(ATTACHMENT_CACHE, OTHER)]);
  });

  it('all of the cache go at a sign-in or sign-out; another cache’s stay', async () => {
    await workboxRecords(ATTACHMENT_CACHE, [PRIVATE, OTHER]);
    await workboxRecords('another-cache', [OTHER]);
    await dropExpiryRecords(ATTACHMENT_CACHE, 'all');
    expect(await recordIds()).toEqual([idOf('another-cache', OTHER)]);
  });

  it('the database is never made here (Workbox makes it with its store)', async () => {
    await dropExpiryRecords(ATTACHMENT_CACHE, [attachmentPath(PRIVATE)]);
    expect(await databases()).not.toContain('workbox-expiration');
  });
});
