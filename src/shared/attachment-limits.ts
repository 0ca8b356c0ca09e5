// Attachments' limits (issue 42), and the words the sentences say them in: shared by attachments.ts
// (which re-exports them) and the error sentences (errors.ts).

export const ATTACHMENT_LIMITS = {
  /** The largest file (bytes). */
  maxBytes: 10 * 1024 * 1024,
  /** What one member's uploads may add up to (bytes). */
  quotaBytes: 200 * 1024 * 1024,
  /** Files a post may carry. */
  perPost: 10,
  /** The longest file name kept. */
  nameChars: 200,
  /** An image's longest side once resized on the device (px). */
  imageSide: 2048,
  /** The most pixels (width × height) an image the server decodes may have: a 40 MP photo, a camera's largest. */
  imagePixels: 40_000_000,
} as const;

/** The accepted types, as a sentence names them. */
export const ACCEPTED_FILES_WORDS = 'images (PNG, JPEG, WebP, GIF), PDF, Excel, Word, PowerPoint, CSV or text files';

/** A limit in bytes as the sentences say it: 10 MB. */
const inMegabytes = (bytes: number) => `${bytes / (1024 * 1024)} MB`;
/** The largest file, as people read it. */
export const MAX_FILE_WORDS = inMegabytes(ATTACHMENT_LIMITS.maxBytes);
/** One member's space for uploads, as people read it. */
export const QUOTA_WORDS = inMegabytes(ATTACHMENT_LIMITS.quotaBytes);
/** The pixel limit, as people read it: 40 megapixels. */
export const IMAGE_PIXELS_WORDS = `${ATTACHMENT_LIMITS.imagePixels / 1_000_000} megapixels`;
