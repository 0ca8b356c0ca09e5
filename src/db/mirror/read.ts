// Reading the `posts` compatibility copy: parsing a raw value into posts, recognising this build's
// own copies by hash, keeping an unreadable value aside, and telling the UI what could not be used.
// No writes to `posts` here (write.ts) and no scheduling (scheduler.ts).

import { db } from '../storage/schema';
import { CORRUPT_POSTS_PREFIX, META_KEYS } from '../contracts';
import { writeLocal } from '../storage/local-store';
import { hashString, hashStringInSlices } from '../storage/hash';

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

// Parsing a raw copy lives in parse.ts (the forum's first frame reads it without the data layer).
export { parseMirror, type ParsedMirror } from './parse';

/** A list of strings kept in the meta table ([] when absent). */
export async function readList(key: string): Promise<string[]> {
  const row = await db.meta.get(key);
  return Array.isArray(row?.value) ? (row.value as string[]) : [];
}

/** The length of the copy this build last wrote, as its stats in IndexedDB have it (write.ts). */
async function writtenChars(): Promise<number | undefined> {
  const row = await db.meta.get(META_KEYS.mirrorStats);
  const chars = (row?.value as { chars?: unknown } | undefined)?.chars;
  return typeof chars === 'number' ? chars : undefined;
}

/**
 * How every copy this build writes ends. The older build writes `posts` with JSON.stringify, which
 * never ends a value with a newline, and reads it with JSON.parse, which accepts one: a value that
 * ends so was written by this build (this tab or another), holds nothing IndexedDB lacks, and is
 * known for what it is from its last character and its length. So an unchanged copy costs a start no work in
 * proportion to it (no hash, no parse), while any rewrite by the older build, even one of the same
 * length (a like taking 5 to 6), drops the newline and is imported.
 */
export const OWN_COPY_END = '\n';

/** True when `raw` ends as this build's copies do (see OWN_COPY_END): constant time. */
export function endsAsOwnCopy(raw: string): boolean {
  return raw.endsWith(OWN_COPY_END);
}

/**
 * True when `raw` is one of the copies this build wrote itself: by its last character and length, or, for a
 * copy written before copies ended so, by its hash (the mirror rewrites such a copy once the page
 * has settled, see mirrorIsCurrent, so that hash is taken on one start only).
 */
export async function isOwnCopy(raw: string): Promise<boolean> {
  // The end says this build wrote it; the length its last write recorded in IndexedDB says that
  // IndexedDB still holds what it was written from (a database emptied since must import it again).
  if (endsAsOwnCopy(raw) && (await writtenChars()) === raw.length) return true;
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
