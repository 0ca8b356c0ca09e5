import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_FILES,
  ACCEPTED_FILES_WORDS,
  ATTACHMENT_KINDS,
  ATTACHMENT_LIMITS,
  cleanFileName,
  FILE_TYPES,
  formatBytes,
  IMAGE_MIME,
  isAttachmentKind,
  isImage,
  isImageKind,
  validateAttachments,
  validateFileName,
} from '../../../src/shared/attachments';
import { ERRORS } from '../../../src/shared/errors';
import { attachmentFields } from '../../../src/shared/ops/fields';
import { encodedType, fitWithin } from '../../../src/db/files/files';

const address = (digit: string) => digit.repeat(64);
const OOXML = 'application/vnd.openxmlformats-officedocument';
/** Excel, Word and PowerPoint: taken by their endings, served by the same types. */
const OFFICE = {
  xlsx: `${OOXML}.spreadsheetml.sheet`,
  docx: `${OOXML}.wordprocessingml.document`,
  pptx: `${OOXML}.presentationml.presentation`,
};

/** Every source file of the app and the server but the table's own. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/u.test(name) ? [path] : [];
  });
}
const SOURCES = [...sourceFiles('src'), ...sourceFiles('server')]
  // The table: attachments.ts, its limits and their words in attachment-limits.ts.
  .filter((path) => path !== join('src', 'shared', 'attachments.ts') && path !== join('src', 'shared', 'attachment-limits.ts'))
  .map((path) => ({ path, text: readFileSync(path, 'utf8') }));

describe('attachments, shared rules', () => {
  it('a list of at most 10 files, each named by a SHA-256 and attached once', () => {
    expect(validateAttachments([{ sha256: address('a'), name: 'a.pdf' }])).toBeNull();
    expect(validateAttachments(Array.from({ length: 10 }, (_, index) => ({ sha256: index.toString(16).repeat(64) })))).toBeNull();
    const refusals: [unknown, string][] = [
      ['a.pdf', 'Attachments are a list of files.'],
      [{ sha256: address('a') }, 'Attachments are a list of files.'],
      [
        Array.from({ length: 11 }, (_, index) => ({ sha256: index.toString(16).padStart(64, '0') })),
        'A post or reply can carry at most 10 attachments.',
      ],
      [[{ sha256: 'A'.repeat(64) }], 'An attachment is named by its SHA-256 (64 hexadecimal digits).'],
      [[{ sha256: `${address('a')}/../x` }], 'An attachment is named by its SHA-256 (64 hexadecimal digits).'],
      [[null], 'An attachment is named by its SHA-256 (64 hexadecimal digits).'],
      [[{ sha256: address('b') }, { sha256: address('b') }], 'This file is attached twice.'],
    ];
    for (const [value, message] of refusals)
      expect(validateAttachments(value), JSON.stringify(value)?.slice(0, 60)).toMatchObject({ message });
  });

  it('names as sent are text, cut to 200 characters (blank: the store names the file as it was uploaded)', () => {
    expect(attachmentFields([{ sha256: address('c'), name: `  ${'n'.repeat(250)}  ` }])).toEqual([
      { sha256: address('c'), name: 'n'.repeat(200) },
    ]);
    expect(attachmentFields([{ sha256: address('d'), name: { toString: 'x' } }])).toEqual([{ sha256: address('d'), name: '' }]);
    expect(() => attachmentFields([{ sha256: 'nope' }])).toThrow('SHA-256');
  });

  it('a name from an operation is cleaned as an upload’s: no header injection, no path, no control or lone surrogate, never half a character', () => {
    expect(cleanFileName(`a"; filename*=UTF-8''x.html`)).toBe("a; filename*=UTF-8''x.html");
    expect(cleanFileName('..\\..\\boot.ini')).toBe('boot.ini');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('report\u0000\r\n.pdf')).toBe('report.pdf');
    expect(cleanFileName('bad\ud800.pdf')).toBe('');
    expect(cleanFileName(42)).toBe('');
    const emoji = `${'a'.repeat(199)}😀😀`;
    expect(cleanFileName(emoji)).toBe(`${'a'.repeat(199)}😀`);
    expect(attachmentFields([{ sha256: address('e'), name: 'x"y.pdf' }])).toEqual([{ sha256: address('e'), name: 'xy.pdf' }]);
  });

  it('a file name with a hidden character is refused, not cleaned (issue 59, item 5)', () => {
    const sha256 = 'a'.repeat(64);
    expect(validateAttachments([{ sha256, name: 'report\u202Egnp.exe' }])).toEqual({
      code: 'invalid',
      title: 'The file name cannot be saved',
      message: 'The file name holds an invisible or direction-changing character (U+202E, often from a paste). Remove it and try again.',
    });
    expect(validateAttachments([{ sha256, name: 'a\u200Bb.pdf' }])?.title).toBe('The file name cannot be saved');
    expect(validateAttachments([{ sha256, name: '👩\u200D💻.png' }])?.title).toBe('The file name cannot be saved');
    expect(validateFileName('C:\\folder\\plain name.pdf')).toBeNull();
    expect(validateFileName('two\nlines.txt')?.title).toBe('The file name is one line');
  });

  it('sizes as people read them; only the four image types show as images', () => {
    expect([812, 14_336, 2_516_582].map(formatBytes)).toEqual(['812 B', '14 KB', '2.4 MB']);
    expect(['image/png', 'image/jpeg', 'image/webp', 'image/gif'].every((mime) => isImage({ mime }))).toBe(true);
    expect(['image/svg+xml', 'application/pdf', 'text/html'].some((mime) => isImage({ mime }))).toBe(false);
  });

  it('an image is drawn at most 2,048 px on its longest side, in proportion; a photo stays JPEG, a chart becomes PNG', () => {
    expect(fitWithin(4032, 3024)).toEqual({ width: 2048, height: 1536 });
    expect(fitWithin(1000, 6000)).toEqual({ width: 341, height: 2048 });
    expect(fitWithin(800, 600)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(100_000, 1)).toEqual({ width: 2048, height: 1 });
    expect([encodedType('image/jpeg'), encodedType('image/webp'), encodedType('image/gif'), encodedType('image/png')]).toEqual([
      'image/jpeg',
      'image/webp',
      'image/png',
      'image/png',
    ]);
  });

  it('one table of kinds (issue 60, item 4): the picker, the device, the sniffer and the sentences read the same types and limits', () => {
    expect(ACCEPTED_FILES).toBe('.png,.jpg,.jpeg,.webp,.gif,.pdf,.csv,.txt,.xlsx,.docx,.pptx,image/png,image/jpeg,image/webp,image/gif');
    expect(IMAGE_MIME).toEqual(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
    // The device takes these by their name's ending (images by their type, then encoded again).
    expect(Object.fromEntries(FILE_TYPES)).toEqual({
      pdf: 'application/pdf',
      csv: 'text/csv',
      txt: 'text/plain',
      ...OFFICE,
    });
    expect(FILE_TYPES.has('constructor')).toBe(false);
    // The server's kinds (file-type's names) and the type each is served as.
    expect(Object.fromEntries(Object.entries(ATTACHMENT_KINDS).map(([kind, { mime }]) => [kind, mime]))).toEqual({
      png: 'image/png',
      jpg: 'image/jpeg',
      webp: 'image/webp',
      gif: 'image/gif',
      pdf: 'application/pdf',
      txt: 'text/plain; charset=utf-8',
      ...OFFICE,
    });
    expect(Object.keys(ATTACHMENT_KINDS).filter((kind) => isAttachmentKind(kind) && isImageKind(kind))).toEqual([
      'png',
      'jpg',
      'webp',
      'gif',
    ]);
    expect(['jpeg', 'csv', 'svg', 'toString'].some(isAttachmentKind)).toBe(false);
    expect(ATTACHMENT_LIMITS).toMatchObject({ maxBytes: 10_485_760, quotaBytes: 209_715_200, imagePixels: 40_000_000 });
    expect(
      [ERRORS.attachment_too_large, ERRORS.attachment_quota, ERRORS.image_too_large, ERRORS.unsupported_file].map((e) => e.message),
    ).toEqual([
      'A file can be at most 10 MB.',
      'You have used all the space for your attachments (200 MB). Files already on the forum stay.',
      'An image can be at most 40 megapixels (for example 8,000 × 5,000 pixels). Resize it and attach it again.',
      'Attach images (PNG, JPEG, WebP, GIF), PDF, Excel, Word, PowerPoint, CSV or text files only.',
    ]);
  });

  it('the types and limits are written nowhere else in src/ and server/ (a copy could drift from the table)', () => {
    const types = new Set(Object.values(ATTACHMENT_KINDS).flatMap((kind) => [kind.mime, ...Object.values(kind.extensions)]));
    const quoted = [...types].map((type) => new RegExp(`['"\`]${type.replace(/[.+]/g, '\\$&')}['"\`]`, 'u'));
    const digits = (value: number) => new RegExp(`\\b${String(value).split('').join('_?')}\\b`, 'u');
    const { maxBytes, quotaBytes, imagePixels } = ATTACHMENT_LIMITS;
    const limits = [
      ...[maxBytes, quotaBytes, imagePixels].map(digits),
      ...[maxBytes, quotaBytes].map((value) => new RegExp(`\\b${value / (1024 * 1024)} \\* 1024 \\* 1024\\b`, 'u')),
    ];
    const copies = [...quoted, ...limits, new RegExp(ACCEPTED_FILES_WORDS.replace(/[()]/g, '\\$&'), 'u')];
    const found = SOURCES.flatMap(({ path, text }) => copies.filter((copy) => copy.test(text)).map((copy) => `${path}: ${copy.source}`));
    expect(found).toEqual([]);
    // The scan sees the copies there were (issue 60): a limit in bytes, a list of types, the pixel limit.
    const before = `const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024; const IMAGE_TYPES = new Set(['image/png']); const PIXELS = 40_000_000;`;
    expect(copies.filter((copy) => copy.test(before))).toHaveLength(3);
  });
});
