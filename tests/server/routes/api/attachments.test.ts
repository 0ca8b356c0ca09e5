// Attachments on the server (issue 42), on PGlite and PostgreSQL: the type read from the bytes, never
// the name (a PNG named .pdf is a PNG; WebP's three kinds and Excel, Word and PowerPoint files are
// taken whatever their names; HTML named .png, SVG, XML, a zip, a macro-enabled Word file and unknown bytes are
// refused; a polyglot is served as the image it starts as, inert); an image's size from its header;
// one copy per SHA-256 whoever uploads it; the address checked against the bytes; 10 MB a file, a
// quota per member, a daily limit; served to its uploaders and admins only, with nosniff, a
// sandboxing CSP, Content-Disposition and an immutable cache.
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../../../src/shared/errors';
import { ATTACHMENT_LIMITS } from '../../../../src/shared/attachments';
import {
  BAD_ADDRESS_MESSAGE,
  CHANGED_ON_THE_WAY_MESSAGE,
  EMPTY_FILE_MESSAGE,
  IMAGE_NOT_READABLE_MESSAGE,
} from '../../../../server/routes/api/attachments';
import { Client, createOp, deletePostOp, deleteReplyOp, hideReplyOp, replyOp, reviewOp, type Answer } from '../../support/client';
import { collectAttachments } from '../../../../server/attachments/storage';
import { COLLECT_AFTER_MS } from '../../../../server/routes/api/attachments';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BACKENDS } from '../../support/databases';
import { DEFAULT_LIMITS } from '../../support/limits';
import { downloadCost } from '../../../../server/lib/limits';
import { testServer, type TestServer } from '../../support/app';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const concat = (...parts: (Uint8Array | string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
const be32 = (value: number) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
const le16 = (value: number) => [value & 255, (value >>> 8) & 255];

/** A picture of one colour, `width` × `height` (with an alpha channel when `channels` is 4), to encode. */
const solid = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: { r: 40, g: 120, b: 200, alpha: 0.5 } } });
// Real images: the server decodes each one to store it without its metadata (issue 59).
const PNG = await solid(640, 480, 4).png().toBuffer();
const JPEG = await solid(1200, 900).jpeg().toBuffer();
/** A PNG (640 × 480), then `rest`. */
const png = (rest = '') => concat(PNG, rest);
/** A JPEG (1200 wide, 900 high). */
const jpeg = () => JPEG;
/** A PNG's signature and a header that claims `width` × `height`, and nothing of a picture. */
const pngHeader = (width: number, height: number) =>
  concat([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], be32(13), 'IHDR', be32(width), be32(height), [8, 6, 0, 0, 0], be32(0), 'IEND');
const gif = () => concat('GIF89a', le16(32), le16(16), [0, 0, 0], ';');
const le32 = (value: number) => [value & 255, (value >>> 8) & 255, (value >>> 16) & 255, (value >>> 24) & 255];
/** A WebP of one chunk (`chunk`: its four-letter name, then its bytes): RIFF, its size, WEBP. */
const webp = (chunk: string, body: number[]) => concat('RIFF', le32(4 + 8 + body.length), 'WEBP', chunk, le32(body.length), body);
const WEBP_LOSSY = await solid(640, 360).webp().toBuffer();
const WEBP_LOSSLESS = await solid(300, 200).webp({ lossless: true }).toBuffer();
const WEBP_EXTENDED = await solid(1600, 900, 4).webp().toBuffer();
/** Lossy (VP8), 640 × 360. */
const webpLossy = () => WEBP_LOSSY;
/** Lossless (VP8L), 300 × 200. */
const webpLossless = () => WEBP_LOSSLESS;
/** Extended (VP8X: with an alpha channel), 1600 × 900. */
const webpExtended = () => WEBP_EXTENDED;
/** A zip of `entries`, stored (not compressed), with its central directory: the container of an Office file. */
function zip(entries: [string, string][]): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const data = Buffer.from(text, 'utf8');
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, fileName, data);
    directory.push(central, fileName);
    offset += 30 + fileName.length + data.length;
  }
  const listed = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(listed.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, listed, end]);
}
/** An Office Open XML file: its content types name `main` (the document's main part), then that part. */
const office = (main: string, part: string) =>
  zip([
    [
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/${part}" ContentType="${main}.main+xml"/></Types>`,
    ],
    [part, '<?xml version="1.0" encoding="UTF-8"?><document/>'],
  ]);
const OOXML = 'application/vnd.openxmlformats-officedocument';
const pdf = () => concat('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

/** Uploads `bytes` as `name` (to the address of its own hash unless given). */
function upload(client: Client, bytes: Uint8Array, name = 'file.bin', address = sha(bytes)): Promise<Answer> {
  return client.request('PUT', `/api/attachments/${address}`, Buffer.from(bytes), {
    'content-type': 'application/octet-stream',
    'x-file-name': encodeURIComponent(name),
  });
}

describe.each(BACKENDS)('attachments on %s', (backend) => {
  let server: TestServer;
  let member: Client;
  let other: Client;
  let admin: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    member = new Client(server.app);
    other = new Client(server.app);
    admin = new Client(server.app);
    await member.join('uploader@example.com');
    await other.join('stranger@example.com');
    await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  it('reads the type and an image’s size from the bytes, never from the name', async () => {
    const cases: [Uint8Array, string, Record<string, unknown>][] = [
      [png(), 'chart.pdf', { mime: 'image/png', width: 640, height: 480, name: 'chart.pdf' }],
      [jpeg(), 'photo.png', { mime: 'image/jpeg', width: 1200, height: 900 }],
      [gif(), 'anim.gif', { mime: 'image/gif', width: 32, height: 16 }],
      [pdf(), 'report.exe', { mime: 'application/pdf', width: null, height: null }],
      [webpLossy(), 'shelf.webp', { mime: 'image/webp', width: 640, height: 360 }],
      [webpLossless(), 'logo.jpg', { mime: 'image/webp', width: 300, height: 200 }],
      [webpExtended(), 'chart.webp', { mime: 'image/webp', width: 1600, height: 900 }],
      [office(`${OOXML}.spreadsheetml.sheet`, 'xl/workbook.xml'), 'panel.xlsx', { mime: `${OOXML}.spreadsheetml.sheet`, width: null }],
      [
        office(`${OOXML}.wordprocessingml.document`, 'word/document.xml'),
        'questionnaire.pdf',
        { mime: `${OOXML}.wordprocessingml.document` },
      ],
      [
        office(`${OOXML}.presentationml.presentation`, 'ppt/presentation.xml'),
        'deck.pptx',
        { mime: `${OOXML}.presentationml.presentation` },
      ],
      [concat('wave,completes\n1,1204\n'), 'results.csv', { mime: 'text/plain; charset=utf-8', name: 'results.csv' }],
      [
        Buffer.from('\uFEFFPlain notes, “quoted”\n', 'utf8'),
        '../../etc/notes.txt',
        { mime: 'text/plain; charset=utf-8', name: 'notes.txt' },
      ],
    ];
    for (const [bytes, name, expected] of cases) {
      const answer = await upload(member, bytes, name);
      expect(answer.status, name).toBe(200);
      // An image (but a GIF) is kept as the server wrote it again: its size is that file's.
      const size = /image\/(png|jpeg|webp)/u.test(String(expected.mime)) ? expect.any(Number) : bytes.length;
      expect(answer.body).toMatchObject({ sha256: sha(bytes), size, ...expected });
    }
  });

  it('refuses HTML, SVG, XML, a zip and unknown bytes, whatever their names, in words', async () => {
    const refused: [Uint8Array, string][] = [
      [concat('<!doctype html><script>alert(1)</script>'), 'cute.png'],
      [concat('  <svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'logo.svg'],
      [Buffer.from('\uFEFF<?xml version="1.0"?><x/>', 'utf8'), 'data.csv'],
      [concat([0x50, 0x4b, 0x03, 0x04], new Array(60).fill(0)), 'archive.docx'],
      [office('application/vnd.ms-word.document.macroEnabled', 'word/document.xml'), 'macros.docx'],
      [zip([['notes.txt', 'a zip of text']]), 'notes.xlsx'],
      [webp('VP8X', [0, 0, 0, 0]), 'cut.webp'],
      [concat([0xff, 0xfe, 0x00, 0xd8, 0x00, 0x01, 0xc3]), 'mystery.txt'],
      [concat('text with a NUL\0 inside'), 'nul.txt'],
      [
        concat(
          [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
          be32(13),
          'IHDR',
          be32(0x80000001),
          be32(480),
          [8, 6, 0, 0, 0],
          be32(0),
          'IEND',
        ),
        'huge.png',
      ],
    ];
    for (const [bytes, name] of refused) {
      const answer = await upload(member, bytes, name);
      expect(answer.status, name).toBe(415);
      expect(answer.body.error).toEqual({ code: 'unsupported_file', message: ERRORS.unsupported_file.message });
    }
  });

  it('a polyglot is served as the image it starts as, inert, without what followed the image: nosniff, a sandboxing CSP, its own path', async () => {
    const bytes = png('<html><script>alert(document.cookie)</script></html>');
    expect((await upload(member, bytes, 'innocent.png')).body.mime).toBe('image/png');
    const served = await member.request('GET', `/api/attachments/${sha(bytes)}`);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    expect(served.headers['content-disposition']).toBe(`inline; filename="innocent.png"; filename*=UTF-8''innocent.png`);
    expect(served.headers['cache-control']).toBe('private, no-cache');
    expect(served.headers.etag).toBe(`"${sha(bytes)}"`);
    const raw = await server.app.inject({ method: 'GET', url: `/api/attachments/${sha(bytes)}`, headers: { cookie: member.cookie! } });
    expect(raw.rawPayload.subarray(0, 8)).toEqual(PNG.subarray(0, 8));
    expect(raw.rawPayload.toString('latin1')).not.toContain('<html>');
  });

  it('an image is kept without its metadata (GPS, camera, XMP), upright and in its own type (issue 59)', async () => {
    const gps = { IFD0: { Make: 'PhoneCo', Model: 'X1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2645/100' } };
    // A photo taken sideways: 40 × 20 as stored, turned a quarter by its Exif orientation (6).
    const photo = await solid(40, 20).jpeg().withMetadata({ orientation: 6 }).withExif(gps).toBuffer();
    const before = await sharp(photo).metadata();
    expect(before).toMatchObject({ orientation: 6, width: 40, height: 20 });
    expect(before.exif!.toString('latin1')).toContain('PhoneCo');
    const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>';
    const images: [Buffer, string, string][] = [
      [photo, 'photo.jpg', 'jpeg'],
      [await solid(30, 10, 4).png().withExif(gps).withXmp(xmp).toBuffer(), 'chart.png', 'png'],
      [await solid(30, 10).webp().withExif(gps).withXmp(xmp).toBuffer(), 'shelf.webp', 'webp'],
    ];
    for (const [bytes, name, format] of images) {
      expect((await sharp(bytes).metadata()).exif, name).toBeDefined();
      const answer = await upload(member, bytes, name);
      expect(answer.status, name).toBe(200);
      expect(answer.body).toMatchObject({ sha256: sha(bytes), mime: `image/${format}` });
      const raw = await server.app.inject({ method: 'GET', url: `/api/attachments/${sha(bytes)}`, headers: { cookie: member.cookie! } });
      const kept = await sharp(raw.rawPayload).metadata();
      expect(kept, name).toMatchObject({ format });
      expect(kept.exif, name).toBeUndefined();
      expect(kept.xmp, name).toBeUndefined();
      expect(kept.orientation, name).toBeUndefined();
      expect(raw.rawPayload.toString('latin1'), name).not.toContain('PhoneCo');
      expect(answer.body.size, name).toBe(raw.rawPayload.length);
    }
    // The photo stands as it was taken: 20 wide, 40 high.
    expect((await upload(member, photo, 'photo.jpg')).body).toMatchObject({ width: 20, height: 40 });
  });

  it('an image past 40 megapixels is refused in words before it is decoded, whatever its size in bytes (issue 59)', async () => {
    for (const [width, height] of [
      [100_000, 100_000],
      [8_000, 5_001],
    ]) {
      const answer = await upload(member, pngHeader(width!, height!), 'huge.png');
      expect(answer.status).toBe(413);
      expect(answer.body.error).toEqual({ code: 'image_too_large', message: ERRORS.image_too_large.message });
    }
    // A picture libvips cannot read is refused in words, not stored.
    const broken = await upload(member, pngHeader(640, 480), 'broken.png');
    expect(broken.status).toBe(400);
    expect(broken.body.error).toEqual({ code: 'invalid', message: IMAGE_NOT_READABLE_MESSAGE });
  });

  it('a file name with a hidden character is refused in words (issue 59)', async () => {
    const answer = await upload(member, pdf(), 'report\u202Egnp.exe');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      code: 'invalid',
      message: 'The file name holds an invisible or direction-changing character (U+202E, often from a paste). Remove it and try again.',
    });
  });

  it('anything but an image downloads; its uploaders and admins may fetch it, nobody else (404, as for no file)', async () => {
    const bytes = concat('%PDF-1.7\n% a questionnaire\n%%EOF\n');
    await upload(member, bytes, 'Questionnaire “v2”.pdf');
    const served = await member.request('GET', `/api/attachments/${sha(bytes)}`);
    expect(served.headers['content-disposition']).toBe(
      `attachment; filename="Questionnaire _v2_.pdf"; filename*=UTF-8''${encodeURIComponent('Questionnaire “v2”.pdf')}`,
    );
    expect((await admin.request('GET', `/api/attachments/${sha(bytes)}`)).status).toBe(200);
    const stranger = await other.request('GET', `/api/attachments/${sha(bytes)}`);
    const nothing = await other.request('GET', `/api/attachments/${'0'.repeat(64)}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual(nothing.body);
    expect((await new Client(server.app).request('GET', `/api/attachments/${sha(bytes)}`)).status).toBe(401);
    expect((await member.request('GET', '/api/attachments/not-a-hash')).body.error).toEqual({
      code: 'invalid',
      message: BAD_ADDRESS_MESSAGE,
    });
  });

  it('one copy per SHA-256: the same file uploaded again, by anyone, stores nothing twice', async () => {
    const bytes = gif();
    const count = async () =>
      (await server.db.query<{ n: unknown }>('SELECT count(*) AS n FROM attachment_blobs WHERE sha256 = $1', [sha(bytes)]))[0]!.n;
    expect((await upload(member, bytes, 'a.gif')).status).toBe(200);
    expect((await upload(member, bytes, 'a.gif')).status).toBe(200);
    expect((await upload(other, bytes, 'b.gif')).status).toBe(200);
    expect(Number(await count())).toBe(1);
    // Each uploader reads it under their own name.
    expect((await other.request('GET', `/api/attachments/${sha(bytes)}`)).headers['content-disposition']).toContain('filename="b.gif"');
  });

  it('Download my data lists the member’s uploads (name, type, size, where to fetch each), never another member’s', async () => {
    const mine = concat('wave,completes\n2,999\n');
    const theirs = concat('wave,completes\n3,1001\n');
    expect((await upload(member, mine, 'wave-2.csv')).status).toBe(200);
    expect((await upload(other, theirs, 'wave-3.csv')).status).toBe(200);
    const data = (await member.request('GET', '/api/account/export')).body as { attachments: Record<string, unknown>[] };
    expect(data.attachments).toContainEqual({
      sha256: sha(mine),
      name: 'wave-2.csv',
      type: 'text/plain; charset=utf-8',
      size: mine.length,
      uploadedAt: expect.any(Number),
      path: `/api/attachments/${sha(mine)}`,
    });
    expect(data.attachments.map((file) => file.sha256)).not.toContain(sha(theirs));
    expect((await member.request('GET', String(data.attachments.find((file) => file.sha256 === sha(mine))!.path))).status).toBe(200);
  });

  it('the address must be the bytes’ hash; empty, over 10 MB or not a file body is refused in words', async () => {
    expect((await upload(member, png(), 'x.png', sha(gif()))).body.error).toEqual({ code: 'invalid', message: CHANGED_ON_THE_WAY_MESSAGE });
    expect((await upload(member, new Uint8Array(), 'x.png', sha(new Uint8Array()))).body.error).toEqual({
      code: 'invalid',
      message: EMPTY_FILE_MESSAGE,
    });
    const big = new Uint8Array(ATTACHMENT_LIMITS.maxBytes + 1);
    const tooBig = await upload(member, big, 'big.pdf');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toEqual({ code: 'attachment_too_large', message: ERRORS.attachment_too_large.message });
    const json = await member.request('PUT', `/api/attachments/${sha(png())}`, { file: 'no' });
    expect(json.status).toBe(415);
    // Told what to send: the file's bytes, not JSON (a third attack test: the JSON sentence was given).
    expect(json.body.error.message).toMatch(/application\/octet-stream/);
    const text = await member.request('PUT', `/api/attachments/${sha(png())}`, Buffer.from(png()), { 'content-type': 'image/png' });
    expect([text.status, text.body.error.message]).toEqual([415, json.body.error.message]);
    expect(
      (
        await new Client(server.app).request('PUT', `/api/attachments/${sha(png())}`, Buffer.from(png()), {
          'content-type': 'application/octet-stream',
        })
      ).status,
    ).toBe(401);
  });

  it('a member’s quota: past it a new file is refused in words; a file of theirs already stored still uploads', async () => {
    const quota = new Client(server.app);
    await quota.join('quota@example.com');
    const mine = pdf();
    await upload(quota, mine, 'mine.pdf');
    // What they uploaded before, as the database holds it: one large file, up to the quota.
    const userId = (await server.db.query<{ id: unknown }>('SELECT id FROM users WHERE email = $1', ['quota@example.com']))[0]!.id;
    await server.db.query(`INSERT INTO attachments (sha256, kind, mime, size, created_at) VALUES ($1, 'pdf', 'application/pdf', $2, 1)`, [
      'f'.repeat(64),
      ATTACHMENT_LIMITS.quotaBytes - 10,
    ]);
    await server.db.query(`INSERT INTO attachment_uploads (user_id, sha256, name, at) VALUES ($1, $2, 'old.pdf', 1)`, [
      userId,
      'f'.repeat(64),
    ]);
    const over = await upload(quota, jpeg(), 'one-more.jpg');
    expect(over.status).toBe(413);
    expect(over.body.error).toEqual({ code: 'attachment_quota', message: ERRORS.attachment_quota.message });
    expect((await upload(quota, mine, 'mine again.pdf')).status).toBe(200);
  });
});

describe.each(BACKENDS)('posts that carry attachments on %s', (backend) => {
  let server: TestServer;
  let author: Client;
  let reader: Client;
  let admin: Client;

  beforeAll(async () => {
    server = await testServer(backend);
    author = new Client(server.app);
    reader = new Client(server.app);
    admin = new Client(server.app);
    await author.join('researcher@example.com');
    await reader.join('reader@example.com');
    await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => server.close());

  const fetchAs = (client: Client, bytes: Uint8Array) => client.request('GET', `/api/attachments/${sha(bytes)}`);

  it('a post names its files: what the server read of each travels with it, never what the device claimed', async () => {
    const chart = png();
    const stored = (await upload(author, chart, 'wave 3 chart.png')).body.size as number;
    const claimed = { sha256: sha(chart), name: 'Wave 3 chart.png', mime: 'text/html', size: 1, width: 9999, height: 1 };
    const answer = await author.push(createOp('Attrition by wave', { attachments: [claimed] }));
    expect(answer.body.results[0]).toMatchObject({ status: 'applied' });
    const expected = { sha256: sha(chart), name: 'Wave 3 chart.png', mime: 'image/png', size: stored, width: 640, height: 480 };
    expect(answer.body.results[0].post.attachments).toEqual([expected]);
    const pulled = (await author.pull()).body.posts.find((post: { title: string }) => post.title === 'Attrition by wave');
    expect(pulled.attachments).toEqual([expected]);
  });

  it('a file the member never uploaded (or only another member did) is refused: attachment_missing, nothing made', async () => {
    const theirs = concat('%PDF-1.4\n% the reader’s own\n%%EOF\n');
    await upload(reader, theirs, 'theirs.pdf');
    for (const attachments of [[{ sha256: 'a'.repeat(64), name: 'ghost.png' }], [{ sha256: sha(theirs), name: 'borrowed.pdf' }]]) {
      const answer = await author.push(createOp('Borrowed evidence', { attachments }));
      expect(answer.body.results[0]).toMatchObject({
        status: 'refused',
        code: 'attachment_missing',
        reason: ERRORS.attachment_missing.message,
      });
    }
    const hostile: unknown[] = [
      'not a list',
      [{ sha256: '../../etc/passwd' }],
      Array.from({ length: 11 }, (_, index) => ({ sha256: sha(concat(`file ${index}`)), name: `${index}.txt` })),
      [
        { sha256: sha(theirs), name: 'a' },
        { sha256: sha(theirs), name: 'b' },
      ],
    ];
    for (const attachments of hostile) {
      const answer = await author.push(createOp('Hostile list', { attachments }));
      expect(answer.body.results[0], JSON.stringify(attachments).slice(0, 80)).toMatchObject({ status: 'refused', code: 'invalid' });
    }
    const [{ n }] = await server.db.query<{ n: unknown }>(
      `SELECT count(*) AS n FROM posts WHERE title IN ('Borrowed evidence', 'Hostile list')`,
    );
    expect(Number(n)).toBe(0);
  });

  it('a pending post’s file: its author and the admins only; once approved, every member; never anyone signed out', async () => {
    const deck = concat('%PDF-1.7\n% the findings deck\n%%EOF\n');
    await upload(author, deck, 'Findings.pdf');
    const postId = await author.createPost('Findings deck', { attachments: [{ sha256: sha(deck), name: 'Findings.pdf' }] });
    expect((await fetchAs(author, deck)).status).toBe(200);
    expect((await fetchAs(admin, deck)).status).toBe(200);
    expect((await fetchAs(reader, deck)).status).toBe(404);
    expect((await admin.push(reviewOp(postId))).body.results[0].status).toBe('applied');
    const served = await fetchAs(reader, deck);
    expect(served.status).toBe(200);
    // Named for the reader as the post names it.
    expect(served.headers['content-disposition']).toMatch(/^attachment; filename="Findings.pdf"/);
    expect((await new Client(server.app).request('GET', `/api/attachments/${sha(deck)}`)).status).toBe(401);
  });

  it('a browser keeps a file but asks again at each use: 304 to who may still have it, 404 to anyone else, whatever their cache holds', async () => {
    const notes = concat('%PDF-1.7\n% the interview notes\n%%EOF\n');
    await upload(author, notes, 'Notes.pdf');
    await author.createPost('Interview notes', { attachments: [{ sha256: sha(notes), name: 'Notes.pdf' }] });
    const first = await fetchAs(author, notes);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const cached = { 'if-none-match': String(first.headers.etag) };
    const again = await author.request('GET', `/api/attachments/${sha(notes)}`, undefined, cached);
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    // The reader may not see the pending post: their browser's copy (the same tag) gets nothing.
    const refused = await reader.request('GET', `/api/attachments/${sha(notes)}`, undefined, cached);
    expect(refused.status).toBe(404);
    expect(refused.headers.etag).toBeUndefined();
  });

  it('a reply carries files too: every member sees them with it; hidden, only admins; deleted, nobody, and they are collected', async () => {
    const postId = await author.createPost('A thread with evidence');
    expect((await admin.push(reviewOp(postId))).body.results[0].status).toBe('applied');
    const table = concat('wave,completes\n4,1311\n');
    await upload(reader, table, 'wave4.csv');
    const answer = await reader.push({
      ...replyOp(postId, 'Wave 4 is in.'),
      attachments: [{ sha256: sha(table), name: 'wave4.csv' }],
    } as never);
    expect(answer.body.results[0].reply.attachments).toEqual([
      { sha256: sha(table), name: 'wave4.csv', mime: 'text/plain; charset=utf-8', size: table.length, width: null, height: null },
    ]);
    const replyId = answer.body.results[0].reply.id as string;
    const pulledReply = async (client: Client) =>
      (await client.pull()).body.replies.find((reply: { id: string }) => reply.id === replyId) as { attachments?: unknown[] };
    expect((await pulledReply(author)).attachments).toHaveLength(1);
    expect((await fetchAs(author, table)).status).toBe(200);
    // Not one's own upload: refused like a post's.
    const borrowed = await author.push({ ...replyOp(postId, 'Mine too.'), attachments: [{ sha256: sha(table), name: 'x.csv' }] } as never);
    expect(borrowed.body.results[0]).toMatchObject({ status: 'refused', code: 'attachment_missing' });

    expect((await admin.push(hideReplyOp(replyId))).body.results[0].status).toBe('applied');
    expect((await pulledReply(author)).attachments).toBeUndefined();
    expect((await pulledReply(admin)).attachments).toHaveLength(1);
    expect((await fetchAs(author, table)).status).toBe(404);
    expect((await fetchAs(admin, table)).status).toBe(200);

    expect((await reader.push(deleteReplyOp(replyId))).body.results[0].status).toBe('applied');
    expect(await collectAttachments(server.db, Date.now() + 1)).toContain(sha(table));

    // A visible reply on a post deleted since: nobody can reach it, so its files go too.
    const doomed = await author.createPost('A thread deleted later');
    expect((await admin.push(reviewOp(doomed))).body.results[0].status).toBe('applied');
    const later = concat('wave,completes\n5,977\n');
    await upload(reader, later, 'wave5.csv');
    const onDoomed = await reader.push({
      ...replyOp(doomed, 'Wave 5.'),
      attachments: [{ sha256: sha(later), name: 'wave5.csv' }],
    } as never);
    expect(onDoomed.body.results[0].status).toBe('applied');
    expect(await collectAttachments(server.db, Date.now() + 1)).not.toContain(sha(later));
    expect((await author.push(deletePostOp(doomed))).body.results[0].status).toBe('applied');
    expect(await collectAttachments(server.db, Date.now() + 1)).toContain(sha(later));
  });

  it('collects what no post carries once the grace has passed: a deleted post’s files, an upload never sent; its uploader’s space comes back', async () => {
    const kept = gif();
    const dropped = concat('%PDF-1.3\n% in a deleted post\n%%EOF\n');
    const never = concat('never sent with a post\n');
    for (const [bytes, name] of [
      [kept, 'kept.gif'],
      [dropped, 'dropped.pdf'],
      [never, 'never.txt'],
    ] as const)
      await upload(author, bytes, name);
    await author.createPost('Keeps its file', { attachments: [{ sha256: sha(kept), name: 'kept.gif' }] });
    const goneId = await author.createPost('Deleted with its file', { attachments: [{ sha256: sha(dropped), name: 'dropped.pdf' }] });
    expect((await author.push(deletePostOp(goneId))).body.results[0].status).toBe('applied');

    // Within the grace nothing goes (a post may still be on its way).
    expect(await collectAttachments(server.db, Date.now() - COLLECT_AFTER_MS)).toEqual([]);
    const collected = await collectAttachments(server.db, Date.now() + 1);
    expect(collected).toEqual(expect.arrayContaining([sha(dropped), sha(never)]));
    expect(collected).not.toContain(sha(kept));
    for (const bytes of [dropped, never]) {
      expect((await fetchAs(author, bytes)).status).toBe(404);
      const [{ n }] = await server.db.query<{ n: unknown }>('SELECT count(*) AS n FROM attachment_blobs WHERE sha256 = $1', [sha(bytes)]);
      expect(Number(n)).toBe(0);
    }
    expect((await fetchAs(author, kept)).status).toBe(200);
  });
});

describe('the daily limit of attachments (DEFAULT_LIMITS)', () => {
  it('a new member’s eleventh file of the day is slow_down, with Retry-After', async () => {
    const server = await testServer('pglite', { memberLimits: DEFAULT_LIMITS });
    try {
      const member = new Client(server.app);
      await member.join('daily@example.com');
      const allowed = DEFAULT_LIMITS.attachments_per_day.firstDayCount;
      for (let index = 0; index < allowed; index += 1)
        expect((await upload(member, concat(`note ${index}\n`), `n${index}.txt`)).status).toBe(200);
      const over = await upload(member, concat('one too many\n'), 'over.txt');
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('slow_down');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // Past the limit the server decodes nothing: a picture libvips cannot read is slow_down too,
      // not "cannot be read" (the limit is taken before the decode, the costly part).
      expect((await upload(member, pngHeader(640, 480), 'broken.png')).body.error.code).toBe('slow_down');
    } finally {
      await server.close();
    }
  });
});

describe('the hourly limit of downloads', () => {
  it('a loop fetching one 2 MB file is slow_down once the member’s megabytes are spent; the admin is exempt', async () => {
    // The default limits with a new member's hour cut to 9 MB: the same rule, met after four
    // downloads rather than a hundred (each one read from the embedded database).
    const memberLimits = {
      ...DEFAULT_LIMITS,
      download_megabytes_per_hour: { ...DEFAULT_LIMITS.download_megabytes_per_hour, firstDayCount: 9 },
    };
    const server = await testServer('pglite', { memberLimits });
    try {
      const member = new Client(server.app);
      await member.join('looper@example.com');
      const big = concat('%PDF-1.4\n', 'x'.repeat(2 * 1024 * 1024), '\n%%EOF\n');
      expect((await upload(member, big, 'deck.pdf')).status).toBe(200);
      const size = big.length / (1024 * 1024);
      const allowed = Math.floor(memberLimits.download_megabytes_per_hour.firstDayCount / size);
      expect(allowed).toBe(4);
      for (let index = 0; index < allowed; index += 1)
        expect((await member.request('GET', `/api/attachments/${sha(big)}`)).status).toBe(200);
      const over = await member.request('GET', `/api/attachments/${sha(big)}`);
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('slow_down');
      expect(over.body.error.message).toMatch(/try again/iu);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // Kept by no cache, and no file's tag on it: a browser never serves this answer as the file.
      expect(over.headers['cache-control']).toBe('no-store');
      expect(over.headers.etag).toBeUndefined();
      // Tiny files cost 64 KiB each (16 to the megabyte), so they too run out rather than never.
      expect(downloadCost(100)).toBe(1 / 16);
      expect(downloadCost(big.length)).toBe(size);
      const admin = new Client(server.app);
      await admin.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
      // More than a member's hour allows.
      for (let index = 0; index <= allowed; index += 1)
        expect((await admin.request('GET', `/api/attachments/${sha(big)}`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
