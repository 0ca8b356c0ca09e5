import { describe, expect, it } from 'vitest';
import { db, type PostRow, type ReplyRow } from '../../../../src/db/storage/schema';
import { attachmentPath, keepSavedFiles, savedFiles, type FileCache } from '../../../../src/db/saved/saved-files';
import type { Attachment } from '../../../../src/shared/attachments';
import { makePost } from '../../factories';

const ME = 'member@example.com';
const withFiles = (attachments: Attachment[]): PostRow => ({ ...makePost(), attachments });
const file = (letter: string): Attachment => ({
  sha256: letter.repeat(64),
  name: `${letter}.png`,
  mime: 'image/png',
  size: 10,
  width: 2,
  height: 2,
});
const reply = (id: string, postId: number, state: ReplyRow['state'], attachments: Attachment[]): ReplyRow => ({
  id,
  postId,
  author: 'Replier',
  authorEmail: 'replier@example.com',
  authorRole: 'user',
  content: 'A chart.',
  quoteId: null,
  createdAt: 1_800_000_000_000,
  editedAt: null,
  state,
  listed: state === 'visible' ? 1 : 0,
  attachments,
});

/** A cache that records its fetches; `served` lists the files the "server" answers with a 200. */
function fakeCache(served: Set<string>, held: string[] = []) {
  const urls = new Set(held.map(attachmentPath));
  const fetched: string[] = [];
  const cache: FileCache = {
    keys: async () => [...urls].map((url) => new Request(`http://localhost${url}`)),
    add: async (url) => {
      fetched.push(url);
      if (!served.has(url.split('/').pop()!)) throw new TypeError('Request failed');
      urls.add(url);
    },
    delete: async (url) => urls.delete(url),
  };
  return { cache, urls, fetched };
}

describe('the saved posts’ files, kept for offline', () => {
  it('are the files of the saved posts and of their visible replies, nobody else’s', async () => {
    const saved = withFiles([file('a')]);
    const other = withFiles([file('b')]);
    const unsaved = withFiles([file('c')]);
    await db.posts.bulkAdd([saved, other, unsaved]);
    await db.replies.bulkAdd([
      reply('r1', saved.id, 'visible', [file('d')]),
      reply('r2', saved.id, 'hidden', [file('e')]),
      reply('r3', other.id, 'visible', [file('f')]),
    ]);
    await db.saved.bulkAdd([
      { email: ME, postId: saved.id, saved: true, at: 1 },
      { email: ME, postId: unsaved.id, saved: false, at: 2 },
      { email: 'someone@example.com', postId: other.id, saved: true, at: 3 },
    ]);
    expect([...(await savedFiles(ME))].sort()).toEqual([file('a').sha256, file('d').sha256]);
  });

  it('fetches what is missing, drops what no saved post names, and tries a file not served yet again', async () => {
    const post = withFiles([file('a'), file('b')]);
    await db.posts.add(post);
    await db.saved.add({ email: ME, postId: post.id, saved: true, at: 1 });
    const { cache, urls, fetched } = fakeCache(new Set([file('a').sha256]), [file('z').sha256]);
    expect(await keepSavedFiles(ME, cache)).toBe(1);
    expect([...urls]).toEqual([attachmentPath(file('a').sha256)]);
    // Once served, b is fetched; a, held, is not fetched again.
    const again = fakeCache(new Set([file('a').sha256, file('b').sha256]), [file('a').sha256]);
    expect(await keepSavedFiles(ME, again.cache)).toBe(1);
    expect(again.fetched).toEqual([attachmentPath(file('b').sha256)]);
    expect(fetched).toHaveLength(2);
    // Unsaved: its files leave the cache.
    await db.saved.put({ email: ME, postId: post.id, saved: false, at: 2 });
    expect(await keepSavedFiles(ME, again.cache)).toBe(0);
    expect(again.urls.size).toBe(0);
  });
});
