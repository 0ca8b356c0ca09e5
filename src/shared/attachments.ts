// Attachments (issue 42) as the app and the server share them: what a post carries (a list of
// files by content address, SHA-256), the limits, and the check of a list as sent. The bytes travel
// apart (PUT /api/attachments/:sha256, before the operation that names them); the server answers
// an operation with what it knows of each file (its type from its bytes, its size, an image's width
// and height), never with what the device claimed.
import { hasUnstorableText, hiddenText, problem as titled, type Problem } from './text-checks';
import { ATTACHMENT_LIMITS } from './attachment-limits';

/** A file attached to a post: its address (SHA-256, hex), its name as given, type, size and, for an image, its size in pixels. */
export interface Attachment {
  sha256: string;
  name: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
}

// The limits and the words the sentences say them in live in attachment-limits.ts (the error sentences
// need them, not the rest of this file).
export { ACCEPTED_FILES_WORDS, ATTACHMENT_LIMITS, IMAGE_PIXELS_WORDS, MAX_FILE_WORDS, QUOTA_WORDS } from './attachment-limits';

export const SHA256_PATTERN = /^[0-9a-f]{64}$/u;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/**
 * Every kind of file the forum takes, once: the type it is served as (the server finds the kind in
 * the bytes: server/attachments/sniff.ts), whether it shows as an image, and the name endings the
 * picker offers with the type the device gives a file so named (files.ts; an image is taken by its
 * type instead, then encoded again). CSV is text to the server: bytes cannot tell it from other
 * text, so it is kept and served as text/plain.
 */
export const ATTACHMENT_KINDS = {
  png: { mime: 'image/png', image: true, extensions: { png: 'image/png' } },
  jpg: { mime: 'image/jpeg', image: true, extensions: { jpg: 'image/jpeg', jpeg: 'image/jpeg' } },
  webp: { mime: 'image/webp', image: true, extensions: { webp: 'image/webp' } },
  gif: { mime: 'image/gif', image: true, extensions: { gif: 'image/gif' } },
  pdf: { mime: 'application/pdf', image: false, extensions: { pdf: 'application/pdf' } },
  txt: { mime: 'text/plain; charset=utf-8', image: false, extensions: { csv: 'text/csv', txt: 'text/plain' } },
  xlsx: { mime: XLSX, image: false, extensions: { xlsx: XLSX } },
  docx: { mime: DOCX, image: false, extensions: { docx: DOCX } },
  pptx: { mime: PPTX, image: false, extensions: { pptx: PPTX } },
} as const satisfies Record<string, { mime: string; image: boolean; extensions: Record<string, string> }>;

/** A kind of file the forum takes (the server's name for it, kept with the file). */
export type AttachmentKind = keyof typeof ATTACHMENT_KINDS;

const KINDS = Object.values(ATTACHMENT_KINDS);

/** True when `value` names a kind the forum takes. */
export const isAttachmentKind = (value: string): value is AttachmentKind => Object.hasOwn(ATTACHMENT_KINDS, value);

/** True for the kinds shown in a post as pictures. */
export const isImageKind = (kind: AttachmentKind): boolean => ATTACHMENT_KINDS[kind].image;

/** The image types shown in a post (every other file is a link). */
export const IMAGE_MIME: readonly string[] = KINDS.filter((kind) => kind.image).map((kind) => kind.mime);
export const isImage = (attachment: Pick<Attachment, 'mime'>): boolean => IMAGE_MIME.includes(attachment.mime);

/** The files the device takes as they are, by their name's ending (lower case), with the type it gives them. */
export const FILE_TYPES: ReadonlyMap<string, string> = new Map(
  KINDS.filter((kind) => !kind.image).flatMap((kind) => Object.entries(kind.extensions)),
);

/** What the file picker offers (the server decides from the bytes all the same). */
export const ACCEPTED_FILES = [...KINDS.flatMap((kind) => Object.keys(kind.extensions).map((ending) => `.${ending}`)), ...IMAGE_MIME].join(
  ',',
);

/** A size as people read it: 812 B, 14 KB, 2.4 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const problem = (message: string): Problem => titled('Attachments', message);

/**
 * A file's name as kept and served: no folders, no control characters, line separators or double
 * quotes (a name goes into a Content-Disposition header), at most 200 characters, never cutting a
 * character in two; '' when nothing readable is left (or it holds what cannot be stored).
 */
export function cleanFileName(value: unknown): string {
  if (typeof value !== 'string') return '';
  const name = value
    .replace(/^.*[\\/]/u, '')
    // eslint-disable-next-line no-control-regex -- the control characters are what is taken out
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029"]/gu, '')
    .trim();
  const kept = Array.from(name).slice(0, ATTACHMENT_LIMITS.nameChars).join('').trim();
  return kept && !hasUnstorableText(kept) ? kept : '';
}

/**
 * The problem of a file's name as given (its folders aside) holding a line break or an invisible or
 * direction-changing character: `report\u202Egnp.exe` shows as "reportexe.png". Refused, not
 * cleaned: the member renames the file and sees the name others will see. Null when fine.
 */
export function validateFileName(value: unknown): Problem | null {
  return typeof value === 'string' ? hiddenText('The file name', value.replace(/^.*[\\/]/u, ''), 'name') : null;
}

/** A list of attachments as sent with a post: at most 10, each with a SHA-256 address, named once, its name without hidden characters. Null when fine. */
export function validateAttachments(value: unknown): Problem | null {
  if (!Array.isArray(value)) return problem('Attachments are a list of files.');
  if (value.length > ATTACHMENT_LIMITS.perPost)
    return problem(`A post or reply can carry at most ${ATTACHMENT_LIMITS.perPost} attachments.`);
  const seen = new Set<string>();
  for (const item of value as unknown[]) {
    const sha256 = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).sha256 : undefined;
    if (typeof sha256 !== 'string' || !SHA256_PATTERN.test(sha256))
      return problem('An attachment is named by its SHA-256 (64 hexadecimal digits).');
    if (seen.has(sha256)) return problem('This file is attached twice.');
    const badName = validateFileName((item as Record<string, unknown>).name);
    if (badName) return badName;
    seen.add(sha256);
  }
  return null;
}
