// The half-written post of the New Post modal, kept in IndexedDB per member so that a reload
// (an app update taking over, a closed tab) never loses it. When the page goes away there is no
// time for an IndexedDB write to commit, so the last moment's draft goes to localStorage
// synchronously; loading takes the newer of the two.

import { db } from '../storage/schema';
import { withDataErrors } from '../storage/errors';
import { readLocal, removeLocal, writeLocal } from '../storage/local-store';
import { DRAFT_KEY_PREFIX, draftMetaKey } from '../contracts';
import { normalizeEmail } from '../../shared/post-rules';
import { ATTACHMENT_LIMITS, SHA256_PATTERN, type Attachment } from '../../shared/attachments';

export interface PostDraft {
  title: string;
  content: string;
  category: string;
  /** The Tags field as typed (commas and all). */
  tags?: string;
  /** The poll being written (issue 42), as the form holds it. */
  poll?: DraftPoll;
  /** The files attached (issue 42): their bytes are kept in db.files. */
  attachments?: Attachment[];
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

function readAttachments(value: unknown): Attachment[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, ATTACHMENT_LIMITS.perPost).flatMap((item: Partial<Attachment> | null) =>
    item && typeof item.sha256 === 'string' && SHA256_PATTERN.test(item.sha256) && typeof item.name === 'string'
      ? [
          {
            sha256: item.sha256,
            name: item.name,
            mime: String(item.mime ?? ''),
            size: Number(item.size ?? 0),
            width: typeof item.width === 'number' ? item.width : null,
            height: typeof item.height === 'number' ? item.height : null,
          },
        ]
      : [],
  );
}

const keyFor = draftMetaKey;
const localKeyFor = (email: string) => `${DRAFT_KEY_PREFIX}${normalizeEmail(email)}`;
const isEmpty = (draft: Omit<PostDraft, 'savedAt'>) =>
  !draft.title.trim() && !draft.content.trim() && !draft.poll && !draft.attachments?.length;

function readDraft(value: unknown): PostDraft | null {
  const draft = value as Partial<PostDraft> | null | undefined;
  if (!draft || typeof draft.title !== 'string' || typeof draft.content !== 'string') return null;
  return {
    title: draft.title,
    content: draft.content,
    category: String(draft.category ?? ''),
    ...(typeof draft.tags === 'string' ? { tags: draft.tags } : {}),
    ...(readPoll(draft.poll) ? { poll: readPoll(draft.poll)! } : {}),
    ...(readAttachments(draft.attachments).length ? { attachments: readAttachments(draft.attachments) } : {}),
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

/** True when the member has a New Post draft with something in it (a sign-out's notice says it is kept). */
export async function hasDraft(email: string): Promise<boolean> {
  const draft = await loadDraft(email);
  return draft !== null && !isEmpty(draft);
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
