// The Undo entries as meta stores them (`undo:<token>`): what a deletion or a bulk review removed,
// read, written and forgotten here; putting one back and running an undoable write are undo.ts's.
// A file of its own: a start and a member switch forget old entries without loading the rest.

import { META_KEY_PREFIXES } from '../contracts';
import { db, type OutboxRow, type PostRow, type ReplyRow, type ViewedRow } from '../storage/schema';

/**
 * How long after the Undo window a held deletion still waits before it is sent (ms): the toast's
 * Undo, pressed at its last moment, then always finds the operation still on the device.
 */
export const UNDO_GRACE_MS = 500;

export interface UndoEntry {
  token: string;
  /** The member who deleted. */
  email: string;
  /** The end of the Undo window (ms since the epoch). */
  until: number;
  /** The deleted post (a post's deletion). */
  post?: PostRow;
  /** The post's replies, or the deleted reply as it was (a reply's deletion). */
  replies: ReplyRow[];
  /** Who had opened the post on this device. */
  viewed: ViewedRow[];
  /** The queued operations about the post that the deletion took off the outbox (put back by Undo). */
  ops: OutboxRow[];
  /** The held operation that tells the server (connected mode). */
  opSeq?: number;
  /** The id of the create the deletion dropped, when the server had not answered it yet. */
  createOpId?: string;
  /**
   * The id of the create a push had already taken when the post was deleted: it stays queued, and
   * its answer moves the held deletion and this entry to the server's id (apply-results.ts).
   */
  sentCreateOpId?: string;
  /** The open flags the deletion settled (Undo opens them again). */
  flags?: string[];
  /** A bulk review (moderation/review.ts): each post as it was before, and its held operation (connected). */
  reviews?: { post: PostRow; opSeq?: number }[];
  /** The notifications a local-only bulk review wrote (Undo deletes them). */
  notifications?: string[];
}

export const undoMetaKey = (token: string) => `${META_KEY_PREFIXES.undo}${token}`;

function readEntry(value: unknown): UndoEntry | undefined {
  const entry = value as Partial<UndoEntry> | undefined;
  if (!entry || typeof entry.token !== 'string' || typeof entry.until !== 'number' || !Array.isArray(entry.replies)) return undefined;
  return { viewed: [], ops: [], ...entry } as UndoEntry;
}

export async function getUndoEntry(token: string): Promise<UndoEntry | undefined> {
  return readEntry((await db.meta.get(undoMetaKey(token)))?.value);
}

export async function putUndoEntry(entry: UndoEntry): Promise<void> {
  await db.meta.put({ key: undoMetaKey(entry.token), value: entry });
}

export async function deleteUndoEntry(token: string | undefined): Promise<void> {
  if (token) await db.meta.delete(undoMetaKey(token));
}

/** Every stored entry (a handful at most: they live seconds, or until their operation is settled). */
export async function listUndoEntries(): Promise<UndoEntry[]> {
  const rows = await db.meta.where('key').startsWith(META_KEY_PREFIXES.undo).toArray();
  return rows.flatMap((row) => readEntry(row.value) ?? []);
}

/**
 * Forgets the entries whose window and grace are over and whose held operation (if any) has left
 * the outbox; call it inside a readwrite transaction on meta and outbox.
 */
export async function purgeExpiredUndoEntries(now = Date.now()): Promise<void> {
  for (const entry of await listUndoEntries()) {
    if (now < entry.until + UNDO_GRACE_MS) continue;
    if (entry.opSeq !== undefined && (await db.outbox.get(entry.opSeq))) continue;
    await deleteUndoEntry(entry.token);
  }
}
