// What a file is, from its bytes (issue 42): never from its name nor from what the device claims. An
// image (PNG, JPEG, WebP, GIF) with the width and height read from its header; a PDF; an Excel, Word
// or PowerPoint file; or text (CSV, TXT): UTF-8 without a NUL and not markup. SVG, HTML, XML and
// every other type are refused. `file-type` reads the signatures (a maintained table of hundreds, the
// Office files' zip entries too); the image headers and the text rule are here.
// The kinds and the type each is served as are the shared table's (src/shared/attachments.ts).
import { fileTypeFromBuffer } from 'file-type';
import { ATTACHMENT_KINDS, isAttachmentKind, isImageKind, type AttachmentKind } from '../../src/shared/attachments';

export interface Sniffed {
  kind: AttachmentKind;
  mime: string;
  /** An image's size in pixels (null for other files). */
  width: number | null;
  height: number | null;
}

const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const u16le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const u24le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
const u32be = (bytes: Uint8Array, at: number) =>
  ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;

/** The largest side an image's header may claim (px). */
const MAX_IMAGE_SIDE = 100_000;

/** An image's width and height from its header, or null when the header cannot be read. */
export function imageSize(bytes: Uint8Array, kind: AttachmentKind): { width: number; height: number } | null {
  // A side past 100,000 px is no picture anyone attaches (and a PNG's 32 bits could overflow the column): refused.
  const sized = (width: number, height: number) =>
    width > 0 && height > 0 && width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE ? { width, height } : null;
  if (kind === 'png' && bytes.length >= 24) return sized(u32be(bytes, 16), u32be(bytes, 20));
  if (kind === 'gif' && bytes.length >= 10) return sized(u16le(bytes, 6), u16le(bytes, 8));
  if (kind === 'webp' && bytes.length >= 30) {
    const chunk = String.fromCharCode(...bytes.subarray(12, 16));
    if (chunk === 'VP8 ') return sized(u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff);
    if (chunk === 'VP8L') {
      const bits = bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24);
      return sized((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
    }
    if (chunk === 'VP8X') return sized(u24le(bytes, 24) + 1, u24le(bytes, 27) + 1);
    return null;
  }
  if (kind === 'jpg') {
    // The first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC) holds the height, then the width.
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) return null;
      const marker = bytes[at + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return sized(u16be(bytes, at + 7), u16be(bytes, at + 5));
      }
      at += 2 + u16be(bytes, at + 2);
    }
  }
  return null;
}

/** Text a browser could take for markup, whatever the type it is served as: refused outright. */
const MARKUP = /^\s*</u;

/** What `bytes` are as an attachment, or null when they are not one of the listed types (or an image that cannot be read). */
export async function sniffAttachment(bytes: Uint8Array): Promise<Sniffed | null> {
  const found = await fileTypeFromBuffer(bytes);
  if (found) {
    const kind = isAttachmentKind(found.ext) ? found.ext : undefined;
    if (!kind || kind === 'txt') return null;
    const { mime } = ATTACHMENT_KINDS[kind];
    if (!isImageKind(kind)) return { kind, mime, width: null, height: null };
    const size = imageSize(bytes, kind);
    return size ? { kind, mime, ...size } : null;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
  if (text.includes('\0') || MARKUP.test(text.replace(/^\uFEFF/u, ''))) return null;
  return { kind: 'txt', mime: ATTACHMENT_KINDS.txt.mime, width: null, height: null };
}
