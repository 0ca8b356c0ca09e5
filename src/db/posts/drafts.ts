// The half-written post of the New Post modal, kept in IndexedDB per member so that a reload
// (an app update taking over, a closed tab) never loses it.

import { db } from '../core/schema';
import { normalizeEmail } from '../../shared/post-rules';

export interface PostDraft {
  title: string;
  content: string;
  category: string;
  savedAt: number;
}

const keyFor = (email: string) => `draft:${normalizeEmail(email)}`;

/** Saves the draft; an empty draft removes it. */
export async function saveDraft(email: string, draft: Omit<PostDraft, 'savedAt'>): Promise<void> {
  if (!draft.title.trim() && !draft.content.trim()) {
    await db.meta.delete(keyFor(email));
    return;
  }
  await db.meta.put({ key: keyFor(email), value: { ...draft, savedAt: Date.now() } });
}

/** The member's draft, or null. */
export async function loadDraft(email: string): Promise<PostDraft | null> {
  const row = await db.meta.get(keyFor(email));
  const value = row?.value as Partial<PostDraft> | undefined;
  if (!value || typeof value.title !== 'string' || typeof value.content !== 'string') return null;
  return { title: value.title, content: value.content, category: String(value.category ?? ''), savedAt: Number(value.savedAt ?? 0) };
}

export async function clearDraft(email: string): Promise<void> {
  await db.meta.delete(keyFor(email));
}
