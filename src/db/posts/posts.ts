// Posts: the writes (create, like, approve, reject) and the newest-first reads behind every list.
// Each write is one Dexie transaction, so concurrent tabs never lose a like or review a post twice;
// each read walks an index, so no list ever reads the whole table.

import Dexie from 'dexie';
import { db, type PostRow } from '../core/schema';
import { emitLocalChange } from '../core/changes';
import { toPost } from './post-codec';
import { countChange, nextRev } from '../core/revisions';
import { DataError, invalidInput, withDataErrors } from '../core/errors';
import { requireAdmin, requireSession } from '../accounts/guards';
import { validateNewPost, validateReason } from '../../shared/validation';
import { pendingPost, type PostEdits } from '../../shared/post-rules';
import { notificationsForReview, type PostReview } from '../../shared/moderation';
import { readStoredSession } from '../accounts/session';
import { queueOperation, type QueueOptions } from '../sync/outbox';
import { countLikesToday } from '../core/like-days';
import { writeNotifications } from '../notifications/notifications';
import { DEFAULT_CATEGORY, isCategory, type CategoryFilter, type NewPostInput, type Post, type Session } from '../types';

/** How many posts a list shows before the user asks for more. */
export const PAGE_SIZE = 20;

export interface ApprovedPostsQuery {
  category?: CategoryFilter;
  limit?: number;
}

const run = withDataErrors;

/**
 * The next post id: the current timestamp, or the next free millisecond after it. It never
 * follows the largest stored id, so an imported id far in the future (or near the largest safe
 * integer) can neither date every new post ahead nor leave no room for one.
 */
async function nextPostId(): Promise<number> {
  let id = Date.now();
  while (await db.posts.get(id)) id += 1;
  return id;
}

/** Creates a pending post by the signed-in member; a broken rule throws `invalid` with the spec's message. */
export async function createPost(input: NewPostInput): Promise<Post> {
  const session = requireSession();
  const problem = validateNewPost(input.title, input.content);
  if (problem) throw invalidInput(problem);
  const category = isCategory(input.category) ? input.category : DEFAULT_CATEGORY;
  const post = await run(() =>
    db.transaction('rw', db.posts, db.meta, db.outbox, async () => {
      const fields = { title: input.title.trim(), content: input.content.trim(), category };
      const now = Date.now();
      const created: PostRow = {
        ...pendingPost(await nextPostId(), session, fields),
        submittedAt: now,
        arrivedAt: now,
        rev: await nextRev(),
      };
      await db.posts.add(created);
      await countChange();
      await queueOperation({ type: 'create', post: fields }, created.id, session);
      return toPost(created);
    }),
  );
  emitLocalChange('post-created');
  return post;
}

/** The stored post, or the `not_found` error; call it inside the writing transaction. */
async function storedPost(id: number): Promise<PostRow> {
  const post = await db.posts.get(id);
  if (!post) throw new DataError('not_found', { postId: id });
  return post;
}

/** Adds exactly one like to an approved post, inside one readwrite transaction; returns the new count. */
export async function likePost(id: number): Promise<number> {
  const session = requireSession();
  const likes = await run(() =>
    db.transaction('rw', [db.posts, db.meta, db.outbox, db.likeDays], async () => {
      const post = await storedPost(id);
      if (post.status !== 'approved') throw new DataError('not_approved', { postId: id });
      await countLikesToday();
      await db.posts
        .where('id')
        .equals(id)
        .modify((row) => {
          row.likes = (row.likes || 0) + 1;
        });
      await countChange();
      await queueOperation({ type: 'like' }, id, session);
      return (post.likes || 0) + 1;
    }),
  );
  emitLocalChange('post-liked');
  return likes;
}

/** A rejection's reason as typed: checked by validateReason (`invalid`), trimmed; blank or absent is none (null). */
export function checkedReason(reason: string | undefined): string | null {
  if (reason === undefined) return null;
  const problem = validateReason(reason);
  if (problem) throw invalidInput(problem);
  return reason.trim() || null;
}

/** The tables a review writes (the post, its notification on a local-only device, its operation). */
export const REVIEW_TABLES = [db.posts, db.meta, db.outbox, db.notifications] as const;

/**
 * Reviews a pending post inside the caller's readwrite transaction (REVIEW_TABLES): its status,
 * reason (a rejection's only) and review time, the author's notification (local-only) and the
 * queued operation. Returns the stored row, the notifications written and the operation's place.
 */
export async function applyReview(
  stored: PostRow,
  status: 'approved' | 'rejected',
  reason: string | null,
  session: Session,
  options: QueueOptions = {},
): Promise<{ row: PostRow; notifications: string[]; opSeq: number | undefined }> {
  const now = Date.now();
  const kept = status === 'rejected' ? reason : null;
  const row: PostRow = { ...stored, status, reason: kept, reviewedAt: now, rev: await nextRev() };
  await db.posts.put(row);
  await countChange();
  const notifications = await writeNotifications(notificationsForReview(stored, status, kept, session), now);
  const input =
    status === 'approved' ? { type: 'approve' as const } : kept ? { type: 'reject' as const, reason: kept } : { type: 'reject' as const };
  const opSeq = await queueOperation(input, stored.id, session, { previousStatus: stored.status, ...options });
  return { row, notifications, opSeq };
}

async function reviewPost(id: number, status: 'approved' | 'rejected', reason?: string): Promise<Post> {
  const session = requireAdmin();
  const checked = checkedReason(reason);
  const post = await run(() =>
    db.transaction('rw', REVIEW_TABLES, async () => {
      const stored = await storedPost(id);
      // The transaction makes check-and-set atomic: of two admins reviewing at once, one wins.
      if (stored.status !== 'pending') throw new DataError('already_reviewed', { postId: id });
      return toPost((await applyReview(stored, status, checked, session)).row);
    }),
  );
  emitLocalChange('post-reviewed');
  return post;
}

/** Approves a pending post; admin session only, pending posts only (else a typed error). */
export function approvePost(id: number): Promise<Post> {
  return reviewPost(id, 'approved');
}

/**
 * Rejects a pending post, with an optional reason (trimmed; validateReason, else `invalid`) that
 * its author reads; admin session only, pending posts only (else a typed error).
 */
export function rejectPost(id: number, reason?: string): Promise<Post> {
  return reviewPost(id, 'rejected', reason);
}

function approvedCollection(category: CategoryFilter) {
  return category === 'All'
    ? db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey])
    : db.posts.where('[status+category+id]').between(['approved', category, Dexie.minKey], ['approved', category, Dexie.maxKey]);
}

/** Approved posts, newest first, in the category (exact; `All` disables it). Search is search/client.ts. */
export function listApprovedPosts({ category = 'All', limit = PAGE_SIZE }: ApprovedPostsQuery = {}): Promise<Post[]> {
  return run(() => approvedCollection(category).reverse().limit(limit).toArray());
}

/** How many approved posts the category holds (no search). */
export function countApprovedPosts(category: CategoryFilter = 'All'): Promise<number> {
  return run(() => approvedCollection(category).count());
}

/** A member's posts (exact authorEmail), in id order. */
export function authorCollection(email: string) {
  return db.posts.where('[authorEmail+id]').between([email, Dexie.minKey], [email, Dexie.maxKey]);
}

/** A post with its review's reason (null when none): what Profile and the admin queue show. */
export type ReviewedPost = Post & Required<PostReview>;

const withReason = (rows: PostRow[]): ReviewedPost[] => rows.map((row) => ({ ...row, reason: row.reason ?? null }));

/** A member's posts of every status, newest first (exact authorEmail match), each with its reason. */
export async function listPostsByAuthor(email: string, limit = PAGE_SIZE): Promise<ReviewedPost[]> {
  return withReason(await run(() => authorCollection(email).reverse().limit(limit).toArray()));
}

export function countPostsByAuthor(email: string): Promise<number> {
  return run(() => authorCollection(email).count());
}

function pendingCollection() {
  return db.posts.where('[status+id]').between(['pending', Dexie.minKey], ['pending', Dexie.maxKey]);
}

/** Posts waiting for review, newest first (each with its reason: null while pending). */
export async function listPendingPosts(limit = PAGE_SIZE): Promise<ReviewedPost[]> {
  return withReason(await run(() => pendingCollection().reverse().limit(limit).toArray()));
}

/** How many posts wait for review: one count of the `[status+id]` index, live on every write and pull. */
export function countPendingPosts(): Promise<number> {
  return run(() => pendingCollection().count());
}

/** The posts with these ids, in the order given; ids that no longer exist are skipped. */
export async function getPostsByIds(ids: readonly number[]): Promise<Post[]> {
  const rows = await run(() => db.posts.bulkGet([...ids]));
  return rows.filter((row): row is PostRow => row !== undefined);
}

/** True when `session` may see `post` (approved, their own, or any post for an admin). */
export function maySee(post: Pick<Post, 'status' | 'authorEmail'>, session: Session): boolean {
  return post.status === 'approved' || post.authorEmail === session.email || session.role === 'admin';
}

/**
 * A post as its page shows it: its fields and its edits. `previous` (the version an edit replaced)
 * only for an admin, as the server sends it; null for everyone else.
 */
export function toEditablePost(row: PostRow, session: Session | null | undefined = readStoredSession()): Post & Required<PostEdits> {
  return {
    ...toPost(row),
    editedAt: row.editedAt ?? null,
    resubmitted: row.resubmitted ?? false,
    previous: session?.role === 'admin' ? (row.previous ?? null) : null,
  };
}

/** The post with this id and its edits, or undefined (whoever may see it: check with maySee). */
export async function getPost(id: number): Promise<(Post & PostEdits) | undefined> {
  const row = await run(() => db.posts.get(id));
  return row && toEditablePost(row);
}
