import Dexie, { liveQuery } from 'dexie';
import { describe, expect, it } from 'vitest';
import { db } from '../../../../src/db/storage/schema';

// The unit tests run the Dexie the app ships: its modern build (scripts/dexie-modern.mjs), one copy
// for the app's modules and for dexie-react-hooks alike.
describe('the Dexie build', () => {
  it('is the modern one, without the package wrapper that registers the ES5 build globally', () => {
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('Dexie')]).toBeUndefined();
    expect(Dexie.semVer).toMatch(/^4\./);
    expect(db).toBeInstanceOf(Dexie);
  });

  it("follows the app's writes in a live query", async () => {
    const seen: (string | undefined)[] = [];
    const subscription = liveQuery(async () => (await db.meta.get('dexie-build-check'))?.value as string | undefined).subscribe((value) =>
      seen.push(value),
    );
    await expect.poll(() => seen.length).toBe(1);
    await db.meta.put({ key: 'dexie-build-check', value: 'written' });
    await expect.poll(() => seen.at(-1)).toBe('written');
    subscription.unsubscribe();
  });
});
