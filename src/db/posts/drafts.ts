// The half-written post of the New Post modal, kept in IndexedDB per member so that a reload
// (an app update taking over, a closed tab) never loses it. When the page goes away there is no
// time for an IndexedDB write to commit, so the last moment's draft goes to localStorage
// synchronously; loading takes the newer of the two.

import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { readLocal, removeLocal, writeLocal } from '../storage/local-store';
import { DRAFT_KEY_PREFIX, draftMetaKey } from '../contracts';
import { normalizeEmail } from '../../shared/post-rules';

export interface PostDraft {
  title: string;
  content: string;
  category: string;
  /** The Tags field as typed (commas and all). */
  tags?: string;
  /** The poll being written (issue 42), as the form holds it. */
  poll?: DraftPoll;
  savedAt: number;
}

/** A poll in a draft: its fields as typed (the closing date as the date field gives it). */
export interface DraftPoll {
  question: string;
  options: string[];
  multiple: boolean;
  closesOn: string;
}

function readPoll(value: unknown): DraftPoll | undefined {
  const poll = value as Partial<DraftPoll> | null | undefined;
  if (!poll || typeof poll.question !== 'string' || !Array.isArray(poll.options)) return undefined;
  return {
    question: poll.question,
    options: poll.options.slice(0, 10).map((option) => (typeof option === 'string' ? option : '')),
    multiple: poll.multiple === true,
    closesOn: typeof poll.closesOn === 'string' ? poll.closesOn : '',
  };
}

const keyFor = draftMetaKey;
const localKeyFor = (email: string) => `${DRAFT_KEY_PREFIX}${normalizeEmail(email)}`;
const isEmpty = (draft: Omit<PostDraft, 'savedAt'>) => !draft.title.trim() && !draft.content.trim() && !draft.poll;

function readDraft(value: unknown): PostDraft | null {
  const draft = value as Partial<PostDraft> | null | undefined;
  if (!draft || typeof draft.title !== 'string' || typeof draft.content !== 'string') return null;
  return {
    title: draft.title,
    content: draft.content,
    category: String(draft.category ?? ''),
    ...(typeof draft.tags === 'string' ? { tags: draft.tags } : {}),
    ...(readPoll(draft.poll) ? { poll: readPoll(draft.poll)! } : {}),
    savedAt: Number(draft.savedAt ?? 0),
  };
}

/** Saves the draft; an empty draft removes it. */
export async function saveDraft(email: string, draft: Omit<PostDraft, 'savedAt'>): Promise<void> {
  if (isEmpty(draft)) {
    await clearDraft(email);
    return;
  }
  await withDataErrors(() => db.meta.put({ key: keyFor(email), value: { ...draft, savedAt: Date.now() } }));
}

/** Saves the draft synchronously (for `pagehide`), where an IndexedDB write could not finish. */
export function saveDraftNow(email: string, draft: Omit<PostDraft, 'savedAt'>): void {
  if (isEmpty(draft)) removeLocal(localKeyFor(email));
  else writeLocal(localKeyFor(email), JSON.stringify({ ...draft, savedAt: Date.now() }));
}

/** The member's newest draft (from IndexedDB or the last-moment copy), or null. */
export async function loadDraft(email: string): Promise<PostDraft | null> {
  const row = await withDataErrors(() => db.meta.get(keyFor(email)));
  const stored = readDraft(row?.value);
  let lastMoment: PostDraft | null;
  try {
    lastMoment = readDraft(JSON.parse(readLocal(localKeyFor(email)) ?? 'null'));
  } catch {
    lastMoment = null;
  }
  if (!stored || !lastMoment) return stored ?? lastMoment;
  return lastMoment.savedAt > stored.savedAt ? lastMoment : stored;
}

export async function clearDraft(email: string): Promise<void> {
  removeLocal(localKeyFor(email));
  await withDataErrors(() => db.meta.delete(keyFor(email)));
}
