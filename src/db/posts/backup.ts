// Backups: every post (admins) or a member's own posts exported to a JSON file, and an admin's
// import of such a file. An import is checked completely before anything is written, then
// merged additively in chunks of about 1,000 posts, one transaction each, with progress; a
// cancel stops between chunks, so only whole chunks are ever written.

import { BACKUP_FORMAT, BACKUP_VERSION } from '../contracts';
import { db, type PostRow } from '../core/schema';
import { pagesByKey } from '../core/paging';
import { asBulkWrite, emitLocalChange } from '../core/changes';
import { DataError, withDataErrors } from '../core/errors';
import { requireAdmin, requireSession } from '../accounts/guards';
import { MERGE_CHUNK_SIZE, mergePosts, type MergeResult } from './merge';
import { parsePost, toPost } from './post-codec';
import { authorCollection } from './posts';
import { POST_STATUSES, type Post, type PostStatus } from '../types';

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
  count: number;
  filename: string;
}

const EXPORT_CHUNK = 1_000;

function abortError(): DOMException {
  return new DOMException('The operation was cancelled.', 'AbortError');
}

/** Exports every post (admin only) or the signed-in member's own posts to a JSON file. */
export async function exportPosts(scope: 'all' | 'mine', options: BackupOptions = {}): Promise<ExportResult> {
  const session = scope === 'all' ? requireAdmin() : requireSession();
  const base = scope === 'all' ? null : authorCollection(session.email);
  return withDataErrors(async () => {
    const total = await (base ? base.count() : db.posts.count());
    const exportedAt = new Date();
    const parts: string[] = [
      `{"format":"${BACKUP_FORMAT}","version":${BACKUP_VERSION},"exportedAt":${JSON.stringify(exportedAt.toISOString())},"scope":"${scope}","count":${total},"posts":[`,
    ];
    let done = 0;
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
    for await (const chunk of pages) {
      if (options.signal?.aborted) throw abortError();
      parts.push(`${done > 0 ? ',' : ''}${chunk.map((row) => JSON.stringify(toPost(row))).join(',')}`);
      done += chunk.length;
      options.onProgress?.({ phase: 'reading', done, total: Math.max(total, done) });
    }
    parts.push(']}');
    const day = exportedAt.toISOString().slice(0, 10);
    return {
      blob: new Blob(parts, { type: 'application/json' }),
      count: done,
      filename: `insight-exchange-${scope === 'all' ? 'posts' : 'my-posts'}-${day}.json`,
    };
  });
}

const refuse = (message: string) => new DataError('invalid', { title: 'Backup not imported', message: `${message} Nothing was imported.` });

/** Checks a whole backup (or a bare JSON array of posts) and returns its posts, or throws. */
export function readBackup(text: string): Post[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw refuse('This file is not valid JSON.');
  }
  const record = data as { format?: unknown; version?: unknown; posts?: unknown } | null;
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
  return posts;
}

/**
 * Imports a backup file (admin only). Additive: new ids are added, known ones merged (higher
 * counters win, a reviewed status wins over pending); nothing is deleted.
 */
export async function importPosts(file: Blob, options: BackupOptions = {}): Promise<MergeResult> {
  requireAdmin();
  options.onProgress?.({ phase: 'checking', done: 0, total: 0 });
  const posts = readBackup(await file.text());
  if (options.signal?.aborted) throw abortError();
  options.onProgress?.({ phase: 'writing', done: 0, total: posts.length });
  return withDataErrors(async () => {
    // One bulk write: the search index reads the new posts once, at the end, not after each chunk.
    const result = await asBulkWrite(() =>
      mergePosts(posts, {
        chunkSize: MERGE_CHUNK_SIZE,
        signal: options.signal,
        onProgress: ({ done, total }) => options.onProgress?.({ phase: 'writing', done, total }),
      }),
    );
    if (result.added + result.updated > 0) emitLocalChange('posts-imported');
    return result;
  });
}
