// Schema version 12 (groups, issue 61): a database of version 11 opens with its rows as they were, an
// empty groups table, and (a connected device) its cursor back at 0, so that the groups made before
// this build came reach it in its next pull; a local-only device gets no cursor.
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import {
  db,
  SCHEMA_V1,
  SCHEMA_V2,
  SCHEMA_V3,
  SCHEMA_V4,
  SCHEMA_V5,
  SCHEMA_V6,
  SCHEMA_V7,
  SCHEMA_V8,
  SCHEMA_V9,
  SCHEMA_V10,
  SCHEMA_V11,
} from '../../../../src/db/storage/schema';
import { DATABASE_NAME, META_KEYS } from '../../../../src/db/contracts';
import { makePost } from '../../factories';

async function version11(cursor: number | null): Promise<void> {
  db.close();
  const v11 = new Dexie(DATABASE_NAME);
  [SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7, SCHEMA_V8, SCHEMA_V9, SCHEMA_V10, SCHEMA_V11].forEach(
    (schema, i) => v11.version(i + 1).stores(schema),
  );
  await v11.table('posts').add({ ...makePost({ id: 1, title: 'Panel weighting' }), rev: 1 });
  if (cursor !== null) await v11.table('meta').put({ key: META_KEYS.syncCursor, value: cursor });
  expect(v11.verno).toBe(11);
  v11.close();
  await db.open();
}

describe('schema version 12 (groups)', () => {
  it('keeps every row, adds the groups tables and sends a connected device back to pull from the start', async () => {
    await version11(42);
    expect(db.verno).toBe(13);
    expect((await db.posts.get(1))?.title).toBe('Panel weighting');
    expect(await db.groups.count()).toBe(0);
    expect(await db.groupMembers.count()).toBe(0);
    expect((await db.meta.get(META_KEYS.syncCursor))?.value).toBe(0);
  });

  it('gives a local-only device no cursor', async () => {
    await version11(null);
    expect(await db.meta.get(META_KEYS.syncCursor)).toBeUndefined();
  });
});
