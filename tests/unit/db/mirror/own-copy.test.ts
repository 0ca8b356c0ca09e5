import { describe, expect, it, vi } from 'vitest';
import { importLegacyPostsAtStart } from '../../../../src/db/mirror/import-start';
import { applyExternalPostsChange, mirrorIsCurrent, writeMirrorNow } from '../../../../src/db/mirror/legacy-mirror';
import { META_KEYS } from '../../../../src/db/contracts';
import { db } from '../../../../src/db/storage/schema';
import { hashStringInSlices } from '../../../../src/db/storage/hash';
import type * as HashModule from '../../../../src/db/storage/hash';
import { likePost } from '../../../../src/db/likes/likes';
import { makePost, signInAsMember, storePosts } from '../../factories';

// Counts the hashes taken: a start with an unchanged copy of this build must take none.
vi.mock('../../../../src/db/storage/hash', async (importOriginal) => {
  const original = await importOriginal<typeof HashModule>();
  return { ...original, hashStringInSlices: vi.fn(original.hashStringInSlices) };
});
const hashes = vi.mocked(hashStringInSlices);

describe("this build's own copy of posts, at start (issue 64)", () => {
  it('is known by its last character: no hash, no parse, nothing imported', async () => {
    signInAsMember();
    await storePosts(makePost({ id: 1, likes: 5 }), makePost({ id: 2 }));
    await writeMirrorNow();
    expect(localStorage.getItem('posts')?.endsWith('\n')).toBe(true);
    const parse = vi.spyOn(JSON, 'parse');
    hashes.mockClear();
    try {
      expect(await importLegacyPostsAtStart()).toEqual({ present: true, corrupt: false, added: 0, updated: 0, skipped: 0 });
      expect(hashes).not.toHaveBeenCalled();
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect(await mirrorIsCurrent()).toBe(true);
  });

  it('imports an older build’s rewrite of the same length (a like taking 5 to 6)', async () => {
    await storePosts(makePost({ id: 1, likes: 5 }));
    await writeMirrorNow();
    const own = localStorage.getItem('posts')!;
    // The older build parses the copy, adds its like and writes it back with JSON.stringify.
    const older = JSON.stringify((JSON.parse(own) as { likes: number }[]).map((post) => ({ ...post, likes: 6 })));
    expect(older.length).toBe(own.length - 1);
    localStorage.setItem('posts', older);
    expect(await mirrorIsCurrent()).toBe(false);
    expect(await importLegacyPostsAtStart()).toMatchObject({ present: true, updated: 1 });
    expect((await db.posts.get(1))?.likes).toBe(6);
  });

  it('knows a copy written before copies ended so by its hash, and has it rewritten once', async () => {
    await storePosts(makePost({ id: 1 }));
    await writeMirrorNow();
    // What the previous version wrote: the same JSON without the newline, recorded by its hash.
    const previous = localStorage.getItem('posts')!.trimEnd();
    localStorage.setItem('posts', previous);
    await db.meta.put({ key: META_KEYS.mirrorOwnWrites, value: [await hashStringInSlices(previous)] });
    hashes.mockClear();
    expect(await importLegacyPostsAtStart()).toMatchObject({ present: true, added: 0, updated: 0 });
    expect(hashes).toHaveBeenCalledTimes(1);
    expect(await mirrorIsCurrent()).toBe(false);
    await writeMirrorNow();
    expect(await mirrorIsCurrent()).toBe(true);
    hashes.mockClear();
    await importLegacyPostsAtStart();
    expect(hashes).not.toHaveBeenCalled();
  });

  it("ignores another tab's write of this build's copy without hashing it", async () => {
    signInAsMember();
    await storePosts(makePost({ id: 1, likes: 5 }));
    await writeMirrorNow();
    const before = localStorage.getItem('posts')!;
    await likePost(1);
    await writeMirrorNow();
    const after = localStorage.getItem('posts')!;
    hashes.mockClear();
    await applyExternalPostsChange(before, after);
    expect(hashes).not.toHaveBeenCalled();
    expect((await db.posts.get(1))?.likes).toBe(6);
  });
});
