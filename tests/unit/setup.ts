// Every unit test starts on a fresh IndexedDB (fake-indexeddb) and an empty localStorage.
import 'fake-indexeddb/auto';
import { beforeEach } from 'vitest';
import { configure } from '@testing-library/dom';
import { db } from '../../src/db/storage/schema';
import { MemoryStorage } from './memory-storage';

// findBy… and waitFor wait on their condition up to 5 s (the library's 1 s is short on a busy 2-core
// machine: a dialog's send through IndexedDB then a route change took longer there).
configure({ asyncUtilTimeout: 5000 });

const storage = new MemoryStorage();
Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });

beforeEach(async () => {
  storage.failWith = undefined;
  storage.quota = Infinity;
  storage.clear();
  await db.delete({ disableAutoOpen: false });
});
