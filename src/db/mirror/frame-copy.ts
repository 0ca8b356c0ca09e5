// The forum's first frame on a new browser that an older build left its posts on (issue 64, item 2):
// the posts the first import is about to write, read from the copy as the import reads it (parse.ts,
// duplicates folded as the merge folds them): the approved ones, with no replies counted yet (the
// import counts the replies this device holds: none), newest first, the first page. Loaded by a new
// browser's Sign In only where a copy is (sync/auth.ts), so the way to the forum without one does not
// carry the posts' codec.
import { parseMirror } from './parse';
import { dedupePosts } from '../posts/post-codec';
import { PAGE_SIZE } from '../posts/page-size';
import type { FramePosts } from '../storage/first-frame';
import type { Post } from '../types';

const newestFirst = (a: Post, b: Post) => b.id - a.id;

/** The first frame's posts from an older build's copy: null when the copy cannot be read (the live forum says so). */
export function framePostsOfCopy(raw: string): FramePosts | null {
  const copy = parseMirror(raw);
  if (copy.kind !== 'posts') return null;
  const posts = dedupePosts(copy.posts)
    .filter((post) => post.status === 'approved')
    .map((post) => ({ ...post, comments: 0 }))
    .sort(newestFirst);
  return { posts: posts.slice(0, PAGE_SIZE), total: posts.length };
}
