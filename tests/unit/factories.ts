// Small builders for unit tests: posts with sensible defaults, and a signed-in session.
import { db, type CategoryRow } from '../../src/db/storage/schema';
import { saveSession } from '../../src/db/members/session';
import { makeSession } from '../../src/db/members/session-rules';
import { DEFAULT_ADMIN_EMAIL as ADMIN_EMAIL } from '../../src/shared/post-rules';
import type { Post, Session } from '../../src/db/types';

let nextId = 1_700_000_000_000;

export function makePost(overrides: Partial<Post> = {}): Post {
  nextId += 1;
  return {
    id: nextId,
    title: `Post ${nextId}`,
    content: 'Some thoughts on sampling.',
    category: 'Quantitative',
    author: 'Test Member',
    authorEmail: 'member@example.com',
    authorRole: 'user',
    likes: 0,
    comments: 0,
    views: 0,
    date: '1 hour ago',
    isTopContributor: false,
    tags: [],
    status: 'approved',
    ...overrides,
  };
}

/** A post as the server last said it is (a row a connected device pulled), for tests of what reaches the server. */
export function synced<P extends Post>(
  post: P,
  seq = 1,
): P & { sync: { seq: number; likes: number; status: Post['status']; views: number } } {
  return { ...post, sync: { seq, likes: post.likes, status: post.status, views: post.views } };
}

/** Stores posts directly, as if they had been written earlier. */
export async function storePosts(...posts: Post[]): Promise<Post[]> {
  await db.posts.bulkAdd(posts);
  return posts;
}

export function signInAs(email: string, name = ''): Session {
  const session = makeSession(email, name);
  saveSession(session);
  return session;
}

export const signInAsAdmin = (): Session => signInAs(ADMIN_EMAIL, 'Admin');
export const signInAsMember = (): Session => signInAs('member@example.com', 'Test Member');

/** A category row as the pull stores it: open to everyone, shown, `name` its name (an admin-made one's id is a UUID). */
export function categoryRow(id: string, name: string, overrides: Partial<CategoryRow> = {}): CategoryRow {
  return { id, name, description: '', position: 6, archived: false, see: null, post: null, hidden: 0, seq: 1, ...overrides };
}
