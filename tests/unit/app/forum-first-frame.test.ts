// What a new browser's forum opens on, painted by its first frame (issue 64, item 2) as the data
// layer is about to write it: the sample posts dated from the frame's moment, or an older build's
// copy read at Sign In (its approved posts, duplicates folded, no replies counted yet), newest first, one page.
import { beforeEach, describe, expect, it } from 'vitest';
import { firstFrameContent } from '../../../src/app/forum-first-frame';
import { framePostsOfCopy } from '../../../src/db/mirror/frame-copy';
import { endFirstFrame, markFirstFrame } from '../../../src/db/storage/first-frame';
import { samplePosts } from '../../../src/shared/sample-posts';
import { makePost } from '../factories';

beforeEach(() => endFirstFrame());

describe('the first frame’s posts', () => {
  it('without an older copy: the sample posts as the seed writes them, newest first', () => {
    const at = 1_800_000_000_000;
    markFirstFrame('ana@example.com', at);
    const content = firstFrameContent(at)!;
    const seeded = samplePosts(at);
    expect(content.total).toBe(seeded.length);
    expect(content.posts.map((post) => post.id)).toEqual(seeded.map((post) => post.id).sort((a, b) => b - a));
    expect(content.posts[0]).toEqual(seeded.find((post) => post.id === content.posts[0]!.id));
  });

  it('an older build’s copy: its approved posts, duplicates folded, no replies counted, newest first, one page', () => {
    const approved = Array.from({ length: 25 }, (_, i) => makePost({ id: 1_000 + i, title: `Copy ${i}`, comments: 4 }));
    const pending = makePost({ id: 5_000, title: 'Waiting', status: 'pending' });
    const again = { ...approved[24]!, likes: approved[24]!.likes + 10 };
    const copy = framePostsOfCopy(JSON.stringify([...approved, pending, again]))!;
    expect(copy.total).toBe(25);
    expect(copy.posts.map((post) => post.id)).toEqual(Array.from({ length: 20 }, (_, i) => 1_024 - i));
    expect(copy.posts[0]).toMatchObject({ title: 'Copy 24', likes: again.likes, comments: 0 });
    // Marked with it at Sign In: the frame shows it, not the samples.
    markFirstFrame('ana@example.com', 1, copy);
    expect(firstFrameContent(1)).toBe(copy);
  });

  it('a copy that cannot be read: no frame (the live forum says so)', () => {
    expect(framePostsOfCopy('{not json')).toBeNull();
    markFirstFrame('ana@example.com', 1, null);
    expect(firstFrameContent(1)).toBeUndefined();
  });
});
