// Reading the `posts` compatibility copy: parsing a raw value into posts, recognising this build's
// own copies by hash, keeping an unreadable value aside, and telling the UI what could not be used.
// No writes to `posts` here (write.ts) and no scheduling (scheduler.ts).

import { db } from '../storage/schema';
import { CORRUPT_POSTS_PREFIX, META_KEYS } from '../contracts';
import { writeLocal } from '../storage/local-store';
import { hashString, hashStringInSlices } from '../storage/hash';
import { parsePost } from '../posts/post-codec';
import type { Post } from '../types';

export interface LegacyImportResult {
  /** True when the `posts` key existed (valid or not). */
  present: boolean;
  corrupt: boolean;
  added: number;
  updated: number;
  skipped: number;
}

/** What an import that found nothing returns. */
export const NOTHING_IMPORTED: LegacyImportResult = { present: false, corrupt: false, added: 0, updated: 0, skipped: 0 };

export type MirrorReport =
  { kind: 'corrupt'; key: string; storedIn: 'localStorage' | 'indexedDB' } | { kind: 'skipped'; count: number; reason: string };

type ReportListener = (report: MirrorReport) => void;
// Subscribers and the digests already kept aside: one object, so a test (or stop) can clear it.
const reports = { listeners: new Set<ReportListener>(), keptAside: new Set<string>() };

/** Subscribes to what the mirror found and could not use (corrupt JSON, unreadable posts). */
export function onMirrorReport(listener: ReportListener): () => void {
  reports.listeners.add(listener);
  return () => reports.listeners.delete(listener);
}

/** Tells every subscriber what could not be used. */
export function report(value: MirrorReport): void {
  for (const listener of reports.listeners) listener(value);
}

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

/** A list of strings kept in the meta table ([] when absent). */
export async function readList(key: string): Promise<string[]> {
  const row = await db.meta.get(key);
  return Array.isArray(row?.value) ? (row.value as string[]) : [];
}

/** True when `raw` is one of the copies this build wrote itself (recognised by its hash). */
export async function isOwnCopy(raw: string): Promise<boolean> {
  return (await readList(META_KEYS.mirrorOwnWrites)).includes(await hashStringInSlices(raw));
}

/**
 * Keeps an unreadable value under `posts.corrupt-<timestamp>` (in IndexedDB's meta table if
 * localStorage is full) and reports it. Returns false when it could be kept nowhere.
 */
export async function keepCorruptAside(raw: string): Promise<boolean> {
  const digest = hashString(raw);
  if (reports.keptAside.has(digest)) return true;
  const key = `${CORRUPT_POSTS_PREFIX}${Date.now()}`;
  if (writeLocal(key, raw).ok) {
    report({ kind: 'corrupt', key, storedIn: 'localStorage' });
  } else {
    try {
      await db.meta.put({ key, value: raw });
    } catch {
      return false;
    }
    report({ kind: 'corrupt', key, storedIn: 'indexedDB' });
  }
  reports.keptAside.add(digest);
  return true;
}
