// Backups: every post (admins) or a member's own posts exported to a JSON file with their
// replies, and an admin's import of such a file. An import is checked completely before anything
// is written, then merged additively in chunks of about 1,000 rows (posts with their replies),
// one transaction each, with progress; a cancel stops between chunks, so only whole chunks are
// ever written.
//
// The file (version 2): {"format", "version", "exportedAt", "scope", "count" (posts), "posts":
// [...], "replies": [...]}, each post with exactly POST_FIELDS and each reply exactly REPLY_FIELDS.
// A version-1 file has no replies and still imports. A post's `comments` in a file is never
// taken as such: it is the number of the post's visible replies on the device after the import.

import { BACKUP_FORMAT, BACKUP_VERSION } from '../contracts';
import { db, type PostRow, type ReplyRow } from '../storage/schema';
import { pagesByKey } from '../storage/paging';
import { asBulkWrite, emitLocalChange } from '../storage/changes';
import { DataError, withDataErrors } from '../storage/errors';
import { requireAdmin, requireSession } from '../members/guards';
import { isConnectedDevice } from '../ops/sync-meta';
import { MERGE_CHUNK_SIZE, dedupePosts, mergePosts, type MergeResult, type ReplyMergeCounts } from './merge';
import { choosePacked, eachPackedBlock, packPosts, packedAmong, settlePacked } from './packed';
import { normalizeEmail } from '../../shared/post-rules';
import { parsePost, parseReply, toPost, toReply } from './post-codec';
import { authorCollection } from './posts';
import { POST_STATUSES, type Post, type PostStatus, type Reply, type ReplyState } from '../types';

export interface BackupProgress {
  phase: 'reading' | 'checking' | 'writing';
  done: number;
  total: number;
}

export interface BackupOptions {
  signal?: AbortSignal;
  onProgress?: (progress: BackupProgress) => void;
}

export interface ExportResult {
  blob: Blob;
  /** Posts in the file. */
  count: number;
  /** Replies in the file. */
  replies: number;
  filename: string;
}

const EXPORT_CHUNK = 1_000;

function abortError(): DOMException {
  return new DOMException('The operation was cancelled.', 'AbortError');
}

/**
 * Which replies of the exported posts a file carries. An admin's export ('all') is a backup of
 * the forum: every reply with a place in its thread, hidden ones with their text and state (an
 * import keeps them hidden). A member's export ('mine') carries the replies on their own posts
 * that everyone can read: visible ones only, since a hidden reply's text is a moderator's to
 * keep. Deleted replies are never exported: their text is gone.
 */
const EXPORTED_STATES: Record<'all' | 'mine', readonly ReplyState[]> = {
  all: ['visible', 'hidden'],
  mine: ['visible'],
};

/** The exported replies of these posts, by post (in id order) and oldest first. */
async function exportedReplies(postIds: readonly number[], states: readonly ReplyState[]): Promise<ReplyRow[]> {
  const keys = postIds.flatMap((postId) => states.map((state) => [postId, state]));
  const rows = await db.replies.where('[postId+state]').anyOf(keys).toArray();
  return rows.sort((a, b) => a.postId - b.postId || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Exports every post (admin only) or the signed-in member's own posts, with their replies, to a JSON file. */
export async function exportPosts(scope: 'all' | 'mine', options: BackupOptions = {}): Promise<ExportResult> {
  const session = scope === 'all' ? requireAdmin() : requireSession();
  const base = scope === 'all' ? null : authorCollection(session.email);
  return withDataErrors(async () => {
    // The packed posts (a local-only device's long tail, packed.ts) first: they are the oldest.
    const packedParts: string[] = [];
    const packedReplyParts: string[] = [];
    let packed = 0;
    let packedReplies = 0;
    const states = EXPORTED_STATES[scope];
    // A post unpacked by another tab meanwhile is a row too by then: it goes in once.
    const fromBlocks = new Set<number>();
    await eachPackedBlock((block) => {
      const posts = base ? block.posts.filter((post) => normalizeEmail(post.authorEmail) === session.email) : block.posts;
      if (posts.length === 0) return;
      const ids = new Set(posts.map((post) => post.id));
      for (const id of ids) fromBlocks.add(id);
      const replies = block.replies.filter((reply) => ids.has(reply.postId) && states.includes(reply.state));
      packedParts.push(
        posts
          .slice()
          .reverse()
          .map((post) => JSON.stringify(toPost(post)))
          .join(','),
      );
      if (replies.length > 0) packedReplyParts.push(replies.map((reply) => JSON.stringify(toReply(reply))).join(','));
      packed += posts.length;
      packedReplies += replies.length;
    });
    const total = packed + (await (base ? base.count() : db.posts.count()));
    const exportedAt = new Date();
    const parts: string[] = [
      `{"format":"${BACKUP_FORMAT}","version":${BACKUP_VERSION},"exportedAt":${JSON.stringify(exportedAt.toISOString())},"scope":"${scope}","count":${total},"posts":[`,
      packedParts.join(','),
    ];
    // The replies follow the posts in the file: one JSON part per chunk of posts, kept until then.
    const replyParts: string[] = packedReplyParts.length > 0 ? [packedReplyParts.join(',')] : [];
    let replies = packedReplies;
    let done = packed;
    const pages = pagesByKey<PostRow, number>(
      (after) =>
        base
          ? db.posts
              .where('[authorEmail+id]')
              .between([session.email, after ?? -Infinity], [session.email, Infinity], false, true)
              .limit(EXPORT_CHUNK)
              .toArray()
          : (after === undefined ? db.posts.orderBy('id') : db.posts.where('id').above(after)).limit(EXPORT_CHUNK).toArray(),
      (row) => row.id,
    );
    if (options.signal?.aborted) throw abortError();
    for await (const page of pages) {
      if (options.signal?.aborted) throw abortError();
      const chunk = fromBlocks.size > 0 ? page.filter((row) => !fromBlocks.has(row.id)) : page;
      if (chunk.length === 0) continue;
      parts.push(`${done > 0 ? ',' : ''}${chunk.map((row) => JSON.stringify(toPost(row))).join(',')}`);
      const rows = await exportedReplies(
        chunk.map((row) => row.id),
        EXPORTED_STATES[scope],
      );
      if (rows.length > 0) replyParts.push(`${replies > 0 ? ',' : ''}${rows.map((row) => JSON.stringify(toReply(row))).join(',')}`);
      replies += rows.length;
      done += chunk.length;
      options.onProgress?.({ phase: 'reading', done, total: Math.max(total, done) });
    }
    parts.push('],"replies":[', ...replyParts, ']}');
    const day = exportedAt.toISOString().slice(0, 10);
    return {
      blob: new Blob(parts, { type: 'application/json' }),
      count: done,
      replies,
      filename: `insight-exchange-${scope === 'all' ? 'posts' : 'my-posts'}-${day}.json`,
    };
  });
}

const refuse = (message: string) => new DataError('invalid', { title: 'Backup not imported', message: `${message} Nothing was imported.` });

/** What a checked backup holds. */
export interface BackupContents {
  posts: Post[];
  /** Its replies, in file order ([] for a version-1 file or a bare array of posts). */
  replies: Reply[];
}

/** What an import did: the posts' counts, and the replies' (skipped: not written, see importPosts). */
export interface ImportResult extends MergeResult {
  replies: ReplyMergeCounts & { skipped: number };
}

/** Checks the replies of a backup, in file order: each must be valid, and no id may come twice. */
function readReplies(list: unknown): Reply[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw refuse('This backup has a "replies" field that is not a list of replies.');
  const replies: Reply[] = [];
  const seen = new Map<string, number>();
  list.forEach((item: unknown, index: number) => {
    const parsed = parseReply(item);
    if (!parsed.ok) throw refuse(`Reply ${index + 1} ${parsed.reason}.`);
    const { id } = parsed.reply;
    const first = seen.get(id);
    if (first !== undefined) throw refuse(`Reply ${index + 1} (id ${id}) has the same id as reply ${first}.`);
    seen.set(id, index + 1);
    replies.push(parsed.reply);
  });
  return replies;
}

/** Checks a whole backup (or a bare JSON array of posts) and returns its posts and replies, or throws. */
export function readBackup(text: string): BackupContents {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw refuse('This file is not valid JSON.');
  }
  const record = data as { format?: unknown; version?: unknown; posts?: unknown; replies?: unknown } | null;
  const list = Array.isArray(data) ? data : record?.format === BACKUP_FORMAT && Array.isArray(record.posts) ? record.posts : null;
  if (!list) throw refuse('This file is not an Insight Exchange backup: it has no list of posts.');
  if (!Array.isArray(data)) {
    const version = record?.version;
    if (typeof version === 'number' && Number.isInteger(version) && version > BACKUP_VERSION) {
      throw refuse('This backup was made by a newer version of Insight Exchange.');
    }
    // Only a whole number up to the known version: "999" (a string) is not a version.
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw refuse('This backup has no valid version number.');
  }
  const posts: Post[] = [];
  list.forEach((item: unknown, index: number) => {
    const parsed = parsePost(item);
    if (!parsed.ok) throw refuse(`Post ${index + 1} ${parsed.reason}.`);
    const status = (item as { status?: unknown }).status;
    if (!POST_STATUSES.includes(status as PostStatus)) throw refuse(`Post ${index + 1} (id ${parsed.post.id}) has no valid status.`);
    posts.push(parsed.post);
  });
  return { posts, replies: Array.isArray(data) ? [] : readReplies(record?.replies) };
}

/** Refuses the file when a reply is on a post that is neither in it nor on this device (read before anything is written). */
async function checkReplyPosts({ posts, replies }: BackupContents): Promise<void> {
  const inFile = new Set(posts.map((post) => post.id));
  const outside = [...new Set(replies.filter((reply) => !inFile.has(reply.postId)).map((reply) => reply.postId))];
  if (outside.length === 0) return;
  const onDevice = new Set([...((await db.posts.where('id').anyOf(outside).primaryKeys()) as number[]), ...(await packedAmong(outside))]);
  const index = replies.findIndex((reply) => !inFile.has(reply.postId) && !onDevice.has(reply.postId));
  if (index < 0) return;
  const { id, postId } = replies[index]!;
  throw refuse(`Reply ${index + 1} (id ${id}) is on post ${postId}, which is neither in this file nor on this device.`);
}

/**
 * Imports a backup file (admin only). Additive: new ids are added, known ones merged (posts:
 * higher likes and views win, a reviewed status wins over pending; replies: a newer edit's text
 * wins, the device's state stands); nothing is deleted. Every imported post's `comments` is then
 * the number of its visible replies on this device.
 *
 * On a connected device the replies are checked like any others but not written (counted as
 * skipped): the server holds the forum's replies, and it takes a reply only as its signed-in
 * author's own operation on an approved post, while the file's posts go to it as new pending
 * posts (src/sync/import.ts). Written here, they would show on this device only, under posts whose
 * counts then differ from every other device's. A local-only device keeps them all.
 */
export async function importPosts(file: Blob, options: BackupOptions = {}): Promise<ImportResult> {
  const session = requireAdmin();
  options.onProgress?.({ phase: 'checking', done: 0, total: 0 });
  const contents = readBackup(await file.text());
  if (options.signal?.aborted) throw abortError();
  return withDataErrors(async () => {
    await checkReplyPosts(contents);
    const skipped = contents.replies.length > 0 && (await isConnectedDevice()) ? contents.replies.length : 0;
    if (options.signal?.aborted) throw abortError();
    // A local-only device packs a large file's long tail (packed.ts): the newest posts go in as
    // rows, the rest 500 to a record.
    const unique = dedupePosts(contents.posts).sort((a, b) => a.id - b.id);
    const local = skipped === 0 && !(await isConnectedDevice());
    // Posts packed here already: those the file changes are unpacked, the rest stay packed as they are.
    const settled = local ? await settlePacked(unique, contents.replies) : new Set<number>();
    const fresh = settled.size > 0 ? unique.filter((post) => !settled.has(post.id)) : unique;
    const packed = local ? await choosePacked(fresh, session.email) : new Set<number>();
    const aside = new Set([...settled, ...packed]);
    const rows = packed.size > 0 ? fresh.filter((post) => !packed.has(post.id)) : fresh;
    const rowReplies = skipped > 0 ? [] : aside.size > 0 ? contents.replies.filter((reply) => !aside.has(reply.postId)) : contents.replies;
    const unchanged = unique.length - fresh.length;
    const total = unique.length;
    options.onProgress?.({ phase: 'writing', done: 0, total });
    // One bulk write: the search index reads the new posts once, at the end, not after each chunk.
    const result = await asBulkWrite(async () => {
      const merged = await mergePosts(rows, {
        chunkSize: MERGE_CHUNK_SIZE,
        signal: options.signal,
        replies: rowReplies,
        onProgress: ({ done }) => options.onProgress?.({ phase: 'writing', done, total }),
      });
      if (unchanged > 0) {
        merged.unchanged += unchanged;
        merged.processed += unchanged;
      }
      if (packed.size === 0 || merged.cancelled) return merged;
      const tail = await packPosts(
        fresh.filter((post) => packed.has(post.id)),
        contents.replies.filter((reply) => packed.has(reply.postId)),
        {
          signal: options.signal,
          onProgress: (done) => options.onProgress?.({ phase: 'writing', done: rows.length + unchanged + done, total }),
        },
      );
      return {
        ...merged,
        added: merged.added + tail.packed,
        processed: merged.processed + tail.packed,
        cancelled: tail.packed < packed.size,
        replies: { ...merged.replies, added: merged.replies.added + tail.replies },
      };
    });
    const { replies } = result;
    if (result.added + result.updated + replies.added + replies.updated > 0) emitLocalChange('posts-imported');
    return { ...result, replies: { ...replies, skipped } };
  });
}
