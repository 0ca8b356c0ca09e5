// Files attached on this device (issue 42): read from what the member chose, pasted or dropped,
// an image resized to at most 2,048 px on its longest side and re-encoded (which leaves its
// metadata behind: a photo's location never leaves the phone), named by its SHA-256, and kept in
// IndexedDB (db.files) with the post that names it: sent before the post when online, kept here
// for good when local-only.
import {
  ACCEPTED_FILES_WORDS,
  ATTACHMENT_KINDS,
  ATTACHMENT_LIMITS,
  cleanFileName,
  FILE_TYPES,
  formatBytes,
  isImage,
  MAX_FILE_WORDS,
  validateFileName,
  type Attachment,
} from '../../shared/attachments';
import { DataError } from '../storage/errors';
import { db, type FileRow } from '../storage/schema';

/** A file ready to attach: what the post will say of it, and its bytes. */
export interface PreparedFile {
  attachment: Attachment;
  blob: Blob;
}

/** The types an image is encoded to on the device. */
const JPEG = ATTACHMENT_KINDS.jpg.mime;
const PNG = ATTACHMENT_KINDS.png.mime;
const WEBP = ATTACHMENT_KINDS.webp.mime;

const extensionOf = (name: string) => /\.([a-z0-9]+)$/iu.exec(name)?.[1]?.toLowerCase() ?? '';

const refused = (title: string, message: string) => new DataError('invalid', { title, message });

/** The SHA-256 of `blob`, as 64 hexadecimal digits. */
export async function sha256Of(blob: Blob): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The longest side at most `side`: the size to draw an image of `width` × `height` at. */
export function fitWithin(width: number, height: number, side: number = ATTACHMENT_LIMITS.imageSide): { width: number; height: number } {
  const scale = Math.min(1, side / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The type an image is re-encoded to: a photo stays JPEG, a WebP stays WebP, the rest (PNG, GIF: drawings, charts) become PNG. */
export const encodedType = (type: string): string => (type === JPEG || type === WEBP ? type : PNG);

/** The longest side of the small picture shown while an image is encoded (the list shows it at 48 px, twice that on a dense screen). */
export const PREVIEW_SIDE = 128;

/** A small picture of the resized image, for the list while it is encoded; undefined if it cannot be made. */
async function previewOf(resized: OffscreenCanvas, type: string): Promise<Blob | undefined> {
  try {
    const size = fitWithin(resized.width, resized.height, PREVIEW_SIDE);
    const small = new OffscreenCanvas(size.width, size.height);
    small.getContext('2d', { willReadFrequently: true })?.drawImage(resized, 0, 0, size.width, size.height);
    return await small.convertToBlob({ type: type === JPEG ? JPEG : PNG, quality: 0.8 });
  } catch {
    return undefined;
  }
}

/**
 * Draws `file` at most 2,048 px on its longest side (its orientation applied) and encodes it again:
 * only pixels travel on. The encode is most of the time (about 0.5 s of a 12 MP photo's 0.8 s on a
 * phone): `onPreview` gets a small picture of the resized image first, and the encode waits for it.
 */
async function reencode(
  file: Blob,
  type: string,
  onPreview?: (preview: Blob) => void | Promise<void>,
): Promise<{ blob: Blob; width: number; height: number }> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw refused('Image not readable', 'This image could not be read. Try another file.');
  }
  const target = encodedType(type);
  const { width, height } = fitWithin(bitmap.width, bitmap.height);
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) {
    bitmap.close();
    throw refused('Image not readable', 'This device cannot resize images.');
  }
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const preview = onPreview && (await previewOf(canvas, target));
  if (preview) await onPreview(preview);
  let blob = await canvas.convertToBlob({ type: target, quality: 0.85 });
  // A lossless image too large to send goes as a photo.
  if (blob.size > ATTACHMENT_LIMITS.maxBytes && target !== JPEG) blob = await canvas.convertToBlob({ type: JPEG, quality: 0.85 });
  return { blob, width, height };
}

/**
 * A chosen, pasted or dropped file made ready to attach; refused with a sentence when it is not a
 * type the forum takes, or too large. An image's small preview goes to `onPreview` once it is drawn.
 */
export async function prepareFile(file: File, onPreview?: (preview: Blob) => void | Promise<void>): Promise<PreparedFile> {
  const badName = validateFileName(file.name);
  if (badName) throw refused(badName.title, badName.message);
  const name = cleanFileName(file.name) || 'pasted-image';
  if (isImage({ mime: file.type })) {
    const { blob, width, height } = await reencode(file, file.type, onPreview);
    if (blob.size > ATTACHMENT_LIMITS.maxBytes)
      throw refused('File too large', `${name} is ${formatBytes(blob.size)} even resized: a file can be at most ${MAX_FILE_WORDS}.`);
    const renamed = blob.type === file.type ? name : name.replace(/\.[a-z0-9]+$/iu, '') + (blob.type === JPEG ? '.jpg' : '.png');
    const attachment = { sha256: await sha256Of(blob), name: renamed, mime: blob.type, size: blob.size, width, height };
    return { attachment, blob };
  }
  const mime = FILE_TYPES.get(extensionOf(name));
  if (!mime) {
    throw refused('File type not accepted', `${name}: attach ${ACCEPTED_FILES_WORDS} only.`);
  }
  if (file.size === 0) throw refused('Empty file', `${name} is empty.`);
  if (file.size > ATTACHMENT_LIMITS.maxBytes)
    throw refused('File too large', `${name} is ${formatBytes(file.size)}: a file can be at most ${MAX_FILE_WORDS}.`);
  const attachment = { sha256: await sha256Of(file), name, mime, size: file.size, width: null, height: null };
  return { attachment, blob: file };
}

/** Keeps a prepared file on this device for `email` (its post is sent later, or never leaves: local-only). */
export async function keepFile(email: string, { attachment, blob }: PreparedFile): Promise<void> {
  const kept = await db.files.get(attachment.sha256);
  // The same bytes attached again: one copy (already sent, it stays sent).
  // Sent for another member: this one's post needs their own upload (the server checks whose it is).
  const sent = kept && kept.email === email ? { uploaded: kept.uploaded, ...(kept.uploadedAt ? { uploadedAt: kept.uploadedAt } : {}) } : {};
  const row: FileRow = { ...attachment, blob, email, uploaded: 0, ...sent, at: Date.now() };
  await db.files.put(row);
}

/** The file's bytes as this device keeps them, or undefined. */
export async function keptFile(sha256: string): Promise<FileRow | undefined> {
  return db.files.get(sha256);
}

/**
 * An upload is sent again when it is this old: the server collects a file no post names a day after
 * its last upload, and an operation may have waited that long (offline, held, set aside).
 */
export const UPLOAD_AGAIN_AFTER_MS = 20 * 60 * 60 * 1000;

/** Of these addresses, the files kept here that the server may not hold for `email`: never sent, sent for another member, or sent long ago. */
export async function filesToUpload(email: string, sha256s: readonly string[], now = Date.now()): Promise<FileRow[]> {
  const rows = await db.files.bulkGet([...sha256s]);
  return rows.filter(
    (row): row is FileRow =>
      row !== undefined && (row.uploaded === 0 || row.email !== email || now - (row.uploadedAt ?? 0) > UPLOAD_AGAIN_AFTER_MS),
  );
}

/** The server holds the file now, uploaded by `email`. */
export async function markUploaded(sha256: string, email: string, at = Date.now()): Promise<void> {
  await db.files.update(sha256, { uploaded: 1, email, uploadedAt: at });
}
