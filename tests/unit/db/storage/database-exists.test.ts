// Whether the browser holds the app's database, asked without Dexie (issue 64, item 2): asking never
// makes one, whichever way the browser lets it ask.
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';
import { databaseExists } from '../../../../src/db/storage/database-exists';
import { DATABASE_NAME } from '../../../../src/db/contracts';

const names = async () => (await indexedDB.databases()).map((database) => database.name);

afterEach(() => {
  Reflect.deleteProperty(indexedDB, 'databases');
});

describe('databaseExists', () => {
  it('says false on a browser without the database, and asking makes none', async () => {
    expect(await names()).not.toContain(DATABASE_NAME);
    expect(await databaseExists()).toBe(false);
    expect(await names()).not.toContain(DATABASE_NAME);
  });

  it('says true once the app has opened it', async () => {
    await db.open();
    expect(await databaseExists()).toBe(true);
  });

  it('where the browser cannot list its databases, asks by opening, and still makes none', async () => {
    Object.defineProperty(indexedDB, 'databases', { value: undefined, configurable: true });
    expect(await databaseExists()).toBe(false);
    Reflect.deleteProperty(indexedDB, 'databases');
    expect(await names()).not.toContain(DATABASE_NAME);
    Object.defineProperty(indexedDB, 'databases', { value: undefined, configurable: true });
    await db.open();
    expect(await databaseExists()).toBe(true);
    // The database the app opened is as it was (the question opened it without a version).
    db.close();
    Reflect.deleteProperty(indexedDB, 'databases');
    await db.open();
    expect(db.verno).toBeGreaterThan(1);
  });
});
