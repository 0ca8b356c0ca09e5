import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { db, SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4 } from '../../../../src/db/storage/schema';
import { DATABASE_NAME, META_KEYS } from '../../../../src/db/contracts';
import { makePost } from '../../factories';

/** Writes a database exactly as version 4 of the app left it, and closes it. */
async function writeVersion4(meta: { key: string; value: unknown }[]) {
  db.close();
  const v4 = new Dexie(DATABASE_NAME);
  v4.version(1).stores(SCHEMA_V1);
  v4.version(2).stores(SCHEMA_V2);
  v4.version(3).stores(SCHEMA_V3);
  v4.version(4).stores(SCHEMA_V4);
  const posts = Array.from({ length: 5 }, (_, i) => ({ ...makePost({ likes: i }), rev: i + 1 }));
  await v4.table('posts').bulkAdd(posts);
  await v4.table('meta').bulkPut(meta);
  expect(v4.verno).toBe(4);
  v4.close();
  return posts;
}

describe('schema version 5 (protocol 3: deleted posts reach the device)', () => {
  it('sends a connected device back to pull from the start, keeping everything else', async () => {
    const meta = [
      { key: META_KEYS.seeded, value: 1 },
      { key: META_KEYS.syncConnected, value: 1_700_000_000_000 },
      { key: META_KEYS.syncCursor, value: 987 },
    ];
    const posts = await writeVersion4(meta);
    await db.open();
    expect(db.verno).toBe(13);
    expect(await db.meta.get(META_KEYS.syncCursor)).toEqual({ key: META_KEYS.syncCursor, value: 0 });
    expect(await db.meta.get(META_KEYS.syncConnected)).toEqual(meta[1]);
    expect(await db.posts.orderBy('id').toArray()).toEqual(posts);
  });

  it('adds no cursor to a local-only device', async () => {
    await writeVersion4([{ key: META_KEYS.seeded, value: 1 }]);
    await db.open();
    expect(await db.meta.get(META_KEYS.syncCursor)).toBeUndefined();
  });
});
