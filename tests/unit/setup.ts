// Every unit test starts on a fresh IndexedDB (fake-indexeddb) and an empty localStorage.
import 'fake-indexeddb/auto';
import { beforeEach } from 'vitest';
import { db } from '../../src/db/storage/schema';
import { MemoryStorage } from './memory-storage';

const storage = new MemoryStorage();
Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });

beforeEach(async () => {
  storage.failWith = undefined;
  storage.quota = Infinity;
  storage.clear();
  await db.delete({ disableAutoOpen: false });
});
