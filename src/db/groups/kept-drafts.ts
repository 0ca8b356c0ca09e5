// Kept drafts: a reply the member wrote to a conversation they may no longer see (revoked.ts), or
// one the server refused as not found, kept in meta so they can copy it (the forum shows them).
// Small on purpose: the forum's screen reads them.

import { db } from '../storage/schema';
import { keptDraftMetaKey } from '../contracts';

/** Why a kept draft could not be sent: shown with it, word for word. */
export const KEPT_DRAFT_SENTENCE = 'This conversation is no longer available to you. Your reply is kept here so you can copy it.';

/** A reply the member wrote that can no longer be sent (meta `keptDraft:<email>:<id>`). */
export interface KeptDraft {
  id: string;
  content: string;
  keptAt: number;
  /** The post it answered (absent in drafts kept before it was recorded). */
  postId?: number;
}

/** Keeps `content` as the member's draft `id` (the same id twice: kept once). */
export async function keepDraft(email: string, id: string, content: string, postId?: number): Promise<void> {
  if (!content.trim()) return;
  const key = keptDraftMetaKey(email, id);
  if (await db.meta.get(key)) return;
  const draft: KeptDraft = { id, content, keptAt: Date.now(), ...(postId === undefined ? {} : { postId }) };
  await db.meta.put({ key, value: draft });
}

/** The member's kept drafts, the newest first. */
export async function readKeptDrafts(email: string): Promise<KeptDraft[]> {
  const prefix = keptDraftMetaKey(email);
  const rows = await db.meta.where('key').startsWith(prefix).toArray();
  return rows.map((row) => row.value as KeptDraft).sort((a, b) => b.keptAt - a.keptAt);
}

/** The member copied what they needed: the kept draft goes. */
export async function dropKeptDraft(email: string, id: string): Promise<void> {
  await db.meta.delete(keptDraftMetaKey(email, id));
}
