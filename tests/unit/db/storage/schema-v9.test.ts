// Schema version 9 (search covers replies): a database of version 8 opens with its replies numbered
// (`rev`), everything else as it was, and the device's search finds posts through them at once.
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
} from '../../../../src/db/storage/schema';
import { DATABASE_NAME } from '../../../../src/db/contracts';
import { SearchEngine } from '../../../../src/db/search/engine';
import { idbPostSource } from '../../../../src/db/search/idb-source';
import { makePost } from '../../factories';

describe('schema version 9 (replies numbered for search)', () => {
  it('numbers the replies already here and keeps them as they were', async () => {
    db.close();
    const v8 = new Dexie(DATABASE_NAME);
    [SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7, SCHEMA_V8].forEach((schema, i) =>
      v8.version(i + 1).stores(schema),
    );
    await v8.table('posts').add({ ...makePost({ id: 1, title: 'Panel weighting' }), rev: 1 });
    const base = { postId: 1, author: 'A', authorEmail: '', authorRole: 'user', quoteId: null, createdAt: 1, editedAt: null, listed: 1 };
    const replies = [
      { ...base, id: 'r1', content: 'A wombat in the sample', state: 'visible' },
      { ...base, id: 'r2', content: 'Hidden wombat', state: 'hidden' },
    ];
    await v8.table('replies').bulkAdd(replies);
    expect(v8.verno).toBe(8);
    v8.close();
    await db.open();
    expect(db.verno).toBe(13);
    const upgraded = await db.replies.orderBy('id').toArray();
    expect(upgraded).toEqual(replies.map((reply) => ({ ...reply, rev: expect.any(Number) })));
    expect(await db.replies.where('rev').above(0).count()).toBe(2);
    const engine = new SearchEngine(idbPostSource());
    try {
      expect(await engine.find('wombat', 'All')).toEqual({ ids: [1], replies: { 1: 'r1' } });
    } finally {
      engine.stop();
    }
  });
});
