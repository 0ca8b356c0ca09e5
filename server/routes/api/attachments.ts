// Attachments (issue 42), by content address:
// - PUT /api/attachments/:sha256 (a member; the file's bytes, application/octet-stream; its name in
//   X-File-Name, URI-encoded): the server hashes the bytes (they must be what the address says),
//   reads the type from them (server/attachments/sniff.ts), and stores the file once whoever uploads
//   it again (a retried upload stores nothing twice). An image is stored without its metadata and
//   upright, and refused past 40 MP (server/attachments/clean-image.ts). At most 10 MB a file, a
//   quota per member, and the attachments_per_day limit; a silenced member uploads nothing (403 silenced). Answers the file as the server knows it.
// - GET /api/attachments/:sha256: the file, to its uploaders, the admins and the members who may see
//   a post or reply that carries it (an approved post and its visible replies: every member; a
//   pending post: its author; a hidden reply: admins), and a message's to its conversation's
//   participants only (admins too only through an open flag of that conversation; issue 61), with
//   `nosniff`, a sandboxing Content-Security-Policy, `Content-Disposition: attachment` for all but
//   images; kept by a browser but checked again at each use (private, no-cache, its sha256 as its
//   ETag: 304 to who may still have it), so a browser's cache never serves it to one who may no
//   longer, nor to another member on the same browser. Anyone else: 404, as for no file.
//   Each download spends its size of the member's download_megabytes_per_hour (429 slow_down past it).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context';
import { refuse } from '../../lib/http-error';
import { downloadCost, takeForRequest } from '../../lib/limits';
import { memberOf } from '../../plugins/session';
import { sniffAttachment } from '../../attachments/sniff';
import { collectAttachments, sqlBlobStore } from '../../attachments/storage';
import { cleanImage, tooManyPixels } from '../../attachments/clean-image';
import { mayDownloadFile, messageFileSql, sqlViewer, viewerParams, visibleFileNameSql } from '../../../src/shared/visibility';
import {
  ATTACHMENT_LIMITS,
  cleanFileName,
  isImageKind,
  SHA256_PATTERN,
  validateFileName,
  type AttachmentKind,
} from '../../../src/shared/attachments';
import { isSilencedAt } from '../../../src/shared/moderation';
import { silenceRefuses, UPLOAD } from '../../../src/shared/ops/rules';

/** How long an upload that no post names is kept (the post may still be on its way), and how often they are looked for. */
export const COLLECT_AFTER_MS = 24 * 60 * 60 * 1000;
const COLLECT_EVERY_MS = 60 * 60 * 1000;

export const BAD_ADDRESS_MESSAGE = 'An attachment’s address is its SHA-256: 64 hexadecimal digits (0–9, a–f).';
export const CHANGED_ON_THE_WAY_MESSAGE = 'The file changed on its way (its SHA-256 is not the one named). Try again.';
export const EMPTY_FILE_MESSAGE = 'This file is empty.';
export const IMAGE_NOT_READABLE_MESSAGE = 'This image could not be read. Try another file.';

/** The file's name as given (X-File-Name, URI-encoded), cleaned (cleanFileName: no path, control characters or quotes, at most 200 characters); 'file' when none is readable. */
export function fileName(header: unknown): string {
  return cleanFileName(decodedName(header)) || 'file';
}

/** X-File-Name decoded ('' when absent or not URI-encoded). */
function decodedName(header: unknown): string {
  try {
    return decodeURIComponent(typeof header === 'string' ? header : '');
  } catch {
    return '';
  }
}

interface AttachmentRow {
  sha256: string;
  kind: AttachmentKind;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
}

const toAnswer = (row: Record<string, unknown>, name: string) => ({
  sha256: String(row.sha256),
  name,
  mime: String(row.mime),
  size: Number(row.size),
  width: row.width === null || row.width === undefined ? null : Number(row.width),
  height: row.height === null || row.height === undefined ? null : Number(row.height),
});

/** An upload sent as anything but the file's bytes (JSON, a form, text). */
const notBytes = () => refuse('bad_content_type', "Send the file's bytes as the request body (content-type: application/octet-stream).");

export default async function attachmentRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: ATTACHMENT_LIMITS.maxBytes },
    (_request, body, done) => done(null, body),
  );

  // A file over the limit, or sent as anything but its bytes, is said in the attachment's own words;
  // every other error goes on as usual.
  app.setErrorHandler((error) => {
    const { code } = error as { code?: unknown };
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw refuse('attachment_too_large');
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw notBytes();
    throw error;
  });

  // Unreferenced uploads (never sent with a post, or their post deleted) are collected once a day's
  // grace has passed: every hour, on each instance (the DELETE is the same whoever runs it).
  let collector: ReturnType<typeof setInterval> | undefined;
  app.addHook('onReady', async () => {
    collector = setInterval(() => {
      collectAttachments(ctx.db, Date.now() - COLLECT_AFTER_MS).catch((error: unknown) =>
        app.log.warn(`attachments: collecting unreferenced files failed: ${(error as Error).message}`),
      );
    }, COLLECT_EVERY_MS);
    collector.unref();
  });
  app.addHook('onClose', async () => clearInterval(collector));

  app.put('/api/attachments/:sha256', { bodyLimit: ATTACHMENT_LIMITS.maxBytes }, async (request) => {
    const { sha256 } = request.params as { sha256: string };
    // A silenced member uploads nothing: the one rule of silence (src/shared/ops/rules.ts), before the bytes are read.
    if (silenceRefuses(UPLOAD, isSilencedAt(memberOf(request), Date.now()))) throw refuse('silenced');
    if (!SHA256_PATTERN.test(sha256)) throw refuse('invalid', BAD_ADDRESS_MESSAGE);
    const bytes = request.body;
    if (!(bytes instanceof Uint8Array)) throw notBytes();
    if (bytes.length === 0) throw refuse('invalid', EMPTY_FILE_MESSAGE);
    if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw refuse('invalid', CHANGED_ON_THE_WAY_MESSAGE);
    const member = memberOf(request);
    const name = fileName(request.headers['x-file-name']);
    const badName = validateFileName(decodedName(request.headers['x-file-name']));
    if (badName) throw refuse('invalid', badName.message);
    const sniffed = await sniffAttachment(bytes);
    if (!sniffed) throw refuse('unsupported_file');
    // An image is kept without its metadata (a photo's GPS position...), upright, if it is within the
    // pixel limit (clean-image.ts). Its address stays the one the member's bytes have: the device
    // names the file by it, and the same upload always becomes the same stored bytes.
    if (sniffed.width !== null && sniffed.height !== null && tooManyPixels(sniffed.width, sniffed.height)) throw refuse('image_too_large');
    // The day's limit is taken before the decode, the costly part: a member past it makes the server decode nothing.
    await takeForRequest(ctx.db, await ctx.memberLimits.current(), 'attachments_per_day', member);
    const cleaned = await cleanImage(bytes, sniffed.kind).catch((error: unknown) => {
      throw /pixel limit/iu.test((error as Error).message) ? refuse('image_too_large') : refuse('invalid', IMAGE_NOT_READABLE_MESSAGE);
    });
    const stored = cleaned ? { ...sniffed, width: cleaned.width, height: cleaned.height, bytes: cleaned.bytes } : { ...sniffed, bytes };
    const row = await ctx.db.transaction(async (tx) => {
      const [used] = await tx.query<{ total: unknown; mine: unknown }>(
        `SELECT coalesce(sum(a.size), 0) AS total, bool_or(a.sha256 = $2) AS mine
         FROM attachment_uploads u JOIN attachments a ON a.sha256 = u.sha256 WHERE u.user_id = $1`,
        [member.id, sha256],
      );
      if (used?.mine !== true && Number(used?.total ?? 0) + stored.bytes.length > ATTACHMENT_LIMITS.quotaBytes)
        throw refuse('attachment_quota');
      const [added] = await tx.query(
        `INSERT INTO attachments (sha256, kind, mime, size, width, height, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (sha256) DO NOTHING RETURNING sha256`,
        [sha256, stored.kind, stored.mime, stored.bytes.length, stored.width, stored.height, Date.now()],
      );
      if (added) await sqlBlobStore.put(tx, sha256, stored.bytes);
      await tx.query(
        `INSERT INTO attachment_uploads (user_id, sha256, name, at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, sha256) DO UPDATE SET name = EXCLUDED.name, at = EXCLUDED.at`,
        [member.id, sha256, name, Date.now()],
      );
      const [row] = await tx.query('SELECT * FROM attachments WHERE sha256 = $1', [sha256]);
      return row!;
    });
    return toAnswer(row, name);
  });

  app.get('/api/attachments/:sha256', async (request, reply) => {
    const { sha256 } = request.params as { sha256: string };
    if (!SHA256_PATTERN.test(sha256)) throw refuse('invalid', BAD_ADDRESS_MESSAGE);
    const member = memberOf(request);
    // The name: the member's own upload's, else the one a post they may see gives it.
    const [found] = await ctx.db.query<
      AttachmentRow & {
        name: string | null;
        shown: string | null;
        conversation_name: string | null;
        only_in_messages: boolean;
        in_flagged_conversation: boolean;
      }
    >(
      `SELECT a.*, (SELECT name FROM attachment_uploads u WHERE u.sha256 = a.sha256 AND u.user_id = $2) AS name,
         ${visibleFileNameSql(sqlViewer('$3', '$4'), 'a.sha256')} AS shown, ${messageFileSql(sqlViewer('$3', '$4'), 'a.sha256')}
       FROM attachments a WHERE a.sha256 = $1`,
      [sha256, member.id, ...viewerParams(member)],
    );
    // Anyone else (a pending post's file, to another member; a message's, to anyone outside its
    // conversation, admins too unless it is flagged) gets what no file gets.
    const allowed =
      found !== undefined &&
      mayDownloadFile(
        {
          uploadedByViewer: found.name !== null,
          carriedWhereSeen: found.shown !== null,
          inViewersConversation: found.conversation_name !== null,
          onlyInMessages: found.only_in_messages === true,
          inFlaggedConversation: found.in_flagged_conversation === true,
        },
        member,
      );
    if (!allowed) throw refuse('not_found', 'There is no file at this address.');
    // Kept by the browser, but asked again at each use (its address is its content, so its tag): a
    // member who may no longer see it, or another member on the same browser, gets the 404 above,
    // never the copy a cache held. Asked again by one who may: nothing to send.
    // Set on the 304 and the 200 only: an error on the way (slow_down, the bytes gone) stays no-store.
    const tag = `"${sha256}"`;
    const kept = { 'cache-control': 'private, no-cache', etag: tag };
    if (ifNoneMatch(request.headers['if-none-match'], tag)) return reply.code(304).headers(kept).send();
    // Each download spends its size of the member's download_megabytes_per_hour: a loop fetching
    // one 10 MB file is told to slow down long before it fills the server's network or memory.
    await takeForRequest(ctx.db, await ctx.memberLimits.current(), 'download_megabytes_per_hour', member, downloadCost(Number(found.size)));
    // Up to 10 MB read as background work (PGlite's one connection answers every waiting like,
    // sign-in or health check first): a member fetching files in a loop never holds the others up.
    const bytes = await sqlBlobStore.get(ctx.db.background, sha256);
    if (!bytes) throw refuse('not_found', 'There is no file at this address.');
    const name = found.name ?? found.shown ?? found.conversation_name ?? `${sha256.slice(0, 12)}.${found.kind}`;
    reply
      .headers(kept)
      .header('content-type', found.mime)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox")
      .header('cross-origin-resource-policy', 'same-origin')
      .header(
        'content-disposition',
        `${isImageKind(found.kind) ? 'inline' : 'attachment'}; filename="${name.replace(/[^\x20-\x7e]/gu, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
    return reply.send(Buffer.from(bytes));
  });
}

/** Whether an If-None-Match header names `tag` (or is `*`). */
function ifNoneMatch(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((one) => one.trim().replace(/^W\//, ''));
  return tags.includes(tag) || tags.includes('*');
}
