// Posts: the operations create, approve and reject (src/shared/ops, run here by ops/run.ts), and the
// newest-first reads behind every list. Each operation is one Dexie transaction, so concurrent tabs
// never review a post twice; each read walks an index, so no list ever reads the whole table.

import Dexie from 'dexie';
import { db, type PostRow } from '../storage/schema';
import { toPost } from './post-codec';
import { PAGE_SIZE } from './page-size';
import { DataError, withDataErrors } from '../storage/errors';
import { movedPostId } from '../ops/sync-meta';
import type { PostAttachments, PostEdits, PostPoll } from '../../shared/post-rules';
import type { PostReview } from '../../shared/moderation';
import { readStoredSession } from '../members/session';
import { runOperation } from '../ops/run-later';
import { isKnownCategory } from '../groups/groups';
import { DEFAULT_CATEGORY, type CategoryFilter, type NewPostInput, type Post, type Session } from '../types';

export { maySee } from '../../shared/post-rules';

// How many posts a list shows before the user asks for more (page-size.ts: the forum's first frame reads it too).
export { PAGE_SIZE };

export interface ApprovedPostsQuery extends PageBounds {
  category?: CategoryFilter;
}

/**
 * One page of a list (the paged live query's PageRange): the rows after `after` in the list's order,
 * through `through` (included) when given, else at most `limit`.
 */
export interface PageBounds {
  after?: { id: number };
  through?: { id: number };
  limit?: number;
}

/** One page of a newest-first list read through the compound index `[...prefix, id]`: only that page's rows are read. */
function newestPage(index: string, prefix: readonly unknown[], { after, through, limit = PAGE_SIZE }: PageBounds) {
  const rows = db.posts
    .where(index)
    .between([...prefix, through?.id ?? Dexie.minKey], [...prefix, after?.id ?? Dexie.maxKey], true, false)
    .reverse();
  return through ? rows : rows.limit(limit);
}

const run = withDataErrors;

/** Creates a pending post by the signed-in member (the `create` operation); a broken rule throws `invalid` with the spec's message. */
export async function createPost(input: NewPostInput): Promise<Post> {
  // The spec's default category when none (or none this device knows) is chosen; the operation
  // refuses one the member may not post in.
  // Read as every write is (withDataErrors): a database another tab upgraded answers "Update needed".
  const category = input.category && (await run(() => isKnownCategory(input.category!))) ? input.category : DEFAULT_CATEGORY;
  const post = {
    title: input.title,
    content: input.content,
    category,
    ...(input.tags?.length ? { tags: input.tags } : {}),
    ...(input.poll ? { poll: input.poll } : {}),
    ...(input.attachments?.length ? { attachments: input.attachments.map(({ sha256, name }) => ({ sha256, name })) } : {}),
  };
  const { postId } = await runOperation('create', { post });
  return postNow(postId!);
}

/**
 * The id a post goes by now: one created on this device moves to the server's id once the server
 * takes it (apply-results.ts), while a screen may still hold the first one.
 */
async function currentId(id: number): Promise<number> {
  if (await db.posts.get(id)) return id;
  return (await movedPostId(id)) ?? id;
}

/** The post of `id` as stored now, followed to the server's id if it moved meanwhile; `not_found` once it is gone. */
async function postNow(id: number): Promise<Post> {
  const row = await run(async () => db.posts.get(await currentId(id)));
  if (!row) throw new DataError('not_found');
  return toPost(row);
}

async function reviewPost(shown: number, review: (postId: number) => Promise<unknown>): Promise<Post> {
  // The queue may show a post under the id it had a moment ago (the admin's own fresh post, re-keyed
  // as the server took it): the review follows it.
  const id = await run(() => currentId(shown));
  await review(id);
  return postNow(id);
}

/** Approves a pending post (the `approve` operation): admins only, pending posts only (else a typed error). */
export function approvePost(id: number): Promise<Post> {
  return reviewPost(id, (postId) => runOperation('approve', { postId }));
}

/**
 * Rejects a pending post (the `reject` operation), with an optional reason (trimmed; validateReason,
 * else `invalid`) that its author reads: admins only, pending posts only (else a typed error).
 */
export function rejectPost(id: number, reason?: string): Promise<Post> {
  return reviewPost(id, (postId) => runOperation('reject', reason === undefined ? { postId } : { postId, reason }));
}

function approvedCollection(category: CategoryFilter) {
  return category === 'All'
    ? db.posts.where('[status+id]').between(['approved', Dexie.minKey], ['approved', Dexie.maxKey])
    : db.posts.where('[status+category+id]').between(['approved', category, Dexie.minKey], ['approved', category, Dexie.maxKey]);
}

/** Approved posts, newest first, in the category (exact; `All` disables it), a page of them. Search is search/client.ts. */
export function listApprovedPosts({ category = 'All', ...page }: ApprovedPostsQuery = {}): Promise<Post[]> {
  return run(() =>
    (category === 'All'
      ? newestPage('[status+id]', ['approved'], page)
      : newestPage('[status+category+id]', ['approved', category], page)
    ).toArray(),
  );
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
export async function listPostsByAuthor(email: string, page: PageBounds = {}): Promise<ReviewedPost[]> {
  return withReason(await run(() => newestPage('[authorEmail+id]', [email], page).toArray()));
}

/**
 * The posts among `ids` whose writing (a create, an edit; not a like or a view) waits in this
 * device's outbox (offline, or held back by a posting limit until it is allowed; a connected
 * device's outbox, empty on a local-only one): shown "Not sent yet". Read in a live query, it follows
 * the outbox (the mark goes when the server has it). Each row says whether it carries its post's
 * words (`writesPost`, recorded when it was queued), so this list never loads the operations'
 * definitions; only rows an older build queued, without it, ask them (loaded then).
 */
export async function unsentPostIds(ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await run(() =>
    db.outbox
      .where('postId')
      .anyOf([...ids])
      .toArray(),
  );
  const older = rows.some((row) => row.writesPost === undefined) ? (await import('../ops/outbox')).writesPost : undefined;
  return new Set(rows.flatMap((row) => ((row.writesPost ?? older!(row.op.type)) ? [row.postId] : [])));
}

export function countPostsByAuthor(email: string): Promise<number> {
  return run(() => authorCollection(email).count());
}

function pendingCollection() {
  return db.posts.where('[status+id]').between(['pending', Dexie.minKey], ['pending', Dexie.maxKey]);
}

/** Posts waiting for review, oldest first as a queue is fair (each with its reason: null while pending). */
export async function listPendingPosts({ after, through, limit = PAGE_SIZE }: PageBounds = {}): Promise<ReviewedPost[]> {
  const rows = db.posts
    .where('[status+id]')
    .between(['pending', after?.id ?? Dexie.minKey], ['pending', through?.id ?? Dexie.maxKey], after === undefined, true);
  return withReason(await run(() => (through ? rows : rows.limit(limit)).toArray()));
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

/**
 * A post as its page shows it: its fields and its edits. `previous` (the version an edit replaced)
 * only for an admin, as the server sends it; null for everyone else.
 */
export function toEditablePost(
  row: PostRow,
  session: Session | null | undefined = readStoredSession(),
): Post & Required<PostEdits> & PostPoll & PostAttachments {
  return {
    ...toPost(row),
    // The author's public id (not a mirror field): their name links to their page where the device
    // holds no email of theirs (another member's post on a connected device).
    ...(row.authorId ? { authorId: row.authorId } : {}),
    editedAt: row.editedAt ?? null,
    resubmitted: row.resubmitted ?? false,
    previous: session?.role === 'admin' ? (row.previous ?? null) : null,
    ...(row.poll ? { poll: row.poll } : {}),
    ...(row.attachments?.length ? { attachments: row.attachments } : {}),
  };
}

/** The post with this id and its edits, or undefined (whoever may see it: check with maySee). */
export async function getPost(id: number): Promise<(Post & PostEdits & PostPoll & PostAttachments) | undefined> {
  const row = await run(() => db.posts.get(id));
  return row && toEditablePost(row);
}
