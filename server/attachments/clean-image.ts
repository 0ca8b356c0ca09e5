// An image as the server keeps it (issue 59, item 5): decoded and written again by libvips (`sharp`),
// so nothing rides along that a member did not mean to share — the Exif block (a photo's GPS
// position, the camera, the time), XMP, IPTC, comments and text chunks. The device strips these
// when it resizes a photo; a client that skips that step is not trusted to. The Exif orientation is
// applied first (rotate()), so the picture stands as it was taken once the tag is gone; an ICC
// profile is applied by converting to sRGB (the colours stay), then dropped. The type stays: a JPEG
// stays JPEG, a PNG PNG, a WebP WebP. A GIF is kept as sent: it has no Exif, and writing it again
// would change its palette and frames.
//
// The pixel limit: an image past ATTACHMENT_LIMITS.imagePixels (40 MP) is refused before it is decoded — a 1 KB
// PNG may claim 100,000 × 100,000 pixels, 40 GB once decoded. libvips reads sequentially and with
// limitInputPixels as well, so a header that lies cannot make it decode more.
import sharp from 'sharp';
import { ATTACHMENT_LIMITS, type AttachmentKind } from '../../src/shared/attachments';

/** True when an image of `width` × `height` is past the pixel limit. */
export const tooManyPixels = (width: number, height: number): boolean => width * height > ATTACHMENT_LIMITS.imagePixels;

export interface CleanImage {
  bytes: Uint8Array;
  width: number;
  height: number;
}

/**
 * `bytes` (a PNG, JPEG or WebP) without their metadata, upright, in their own type; a GIF as it is
 * (null). Throws when libvips cannot read them, or they are past the pixel limit.
 */
export async function cleanImage(bytes: Uint8Array, kind: AttachmentKind): Promise<CleanImage | null> {
  if (kind !== 'jpg' && kind !== 'png' && kind !== 'webp') return null;
  return oneOfFew(() => rewrite(bytes, kind));
}

/**
 * At most DECODES_AT_ONCE images are decoded at a time; the others wait their turn: a burst of
 * 40 MP uploads (about 160 MB each once decoded) cannot take every thread and the memory at once.
 */
export const DECODES_AT_ONCE = 2;
let decoding = 0;
const waiting: (() => void)[] = [];

/** Runs `work` once fewer than DECODES_AT_ONCE others are running (in the order asked). */
export async function oneOfFew<T>(work: () => Promise<T>): Promise<T> {
  if (decoding >= DECODES_AT_ONCE) await new Promise<void>((turn) => waiting.push(turn));
  else decoding += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line (the count stays), or is given back.
    const next = waiting.shift();
    if (next) next();
    else decoding -= 1;
  }
}

async function rewrite(bytes: Uint8Array, kind: 'jpg' | 'png' | 'webp'): Promise<CleanImage> {
  const input = sharp(bytes, { limitInputPixels: ATTACHMENT_LIMITS.imagePixels, sequentialRead: true, failOn: 'error' });
  const { isPalette } = await input.metadata();
  const upright = input.rotate();
  const written =
    kind === 'jpg'
      ? upright.jpeg({ quality: 90 })
      : kind === 'png'
        ? upright.png({ palette: isPalette === true })
        : upright.webp({ quality: 90 });
  const { data, info } = await written.toBuffer({ resolveWithObject: true });
  return { bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}
