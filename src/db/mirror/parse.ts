// Parsing the `posts` compatibility copy an older build left (or this build's mirror) into posts,
// without the data layer's code: the import (import.ts) and the forum's first frame on a new browser
// (src/app/forum-first-frame.tsx) read it the same way.
import { parsePost } from '../posts/post-codec';
import type { Post } from '../types';

export type ParsedMirror = { kind: 'absent' } | { kind: 'corrupt' } | { kind: 'posts'; posts: Post[]; skipped: number; reason?: string };

/** Reads a raw `posts` value: absent, corrupt (not a JSON array) or the posts it holds. */
export function parseMirror(raw: string | null | undefined): ParsedMirror {
  if (raw === null || raw === undefined) return { kind: 'absent' };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { kind: 'corrupt' };
  }
  if (!Array.isArray(value)) return { kind: 'corrupt' };
  const posts: Post[] = [];
  let skipped = 0;
  let reason: string | undefined;
  for (const item of value) {
    const parsed = parsePost(item);
    if (parsed.ok) posts.push(parsed.post);
    else {
      skipped += 1;
      reason ??= `An entry ${parsed.reason}.`;
    }
  }
  return { kind: 'posts', posts, skipped, reason };
}
