// Where attachments' bytes live (issue 42), behind one interface so that every instance sees the
// same files: in PostgreSQL by default (PGlite's one folder to back up, or the PostgreSQL server),
// keyed by their SHA-256, so a file uploaded twice, by anyone, is stored once. Object storage
// (S3-compatible) is the step past it (docs/scaling.md): the same interface over a bucket.
import type { Database, Sql } from '../db/storage/adapter';

export interface BlobStore {
  /** Stores `bytes` under `sha256` (nothing when they are stored already). */
  put(sql: Sql, sha256: string, bytes: Uint8Array): Promise<void>;
  /** The bytes of `sha256`, or undefined. */
  get(sql: Sql, sha256: string): Promise<Uint8Array | undefined>;
  /** Forgets the bytes of these files (collected: no post names them). */
  remove(sql: Sql, sha256s: readonly string[]): Promise<void>;
}

/** The default: a bytea row per file (attachment_blobs, migration 15). */
export const sqlBlobStore: BlobStore = {
  async put(sql, sha256, bytes) {
    await sql.query('INSERT INTO attachment_blobs (sha256, bytes) VALUES ($1, $2) ON CONFLICT DO NOTHING', [sha256, Buffer.from(bytes)]);
  },
  async remove(sql, sha256s) {
    if (sha256s.length > 0) await sql.query('DELETE FROM attachment_blobs WHERE sha256 = ANY($1::text[])', [[...sha256s]]);
  },
  async get(sql, sha256) {
    const [row] = await sql.query<{ bytes: unknown }>('SELECT bytes FROM attachment_blobs WHERE sha256 = $1', [sha256]);
    if (!row) return undefined;
    const bytes = row.bytes;
    if (bytes instanceof Uint8Array) return bytes;
    // Some drivers hand bytea over as '\x…' text.
    if (typeof bytes === 'string' && bytes.startsWith('\\x')) return Buffer.from(bytes.slice(2), 'hex');
    throw new Error('An attachment came back from the database in a shape this server cannot read.');
  },
};

/**
 * Collects the files no post or reply carries and nobody uploaded since `before` (ms): an upload
 * whose post never came, a deleted post's or reply's files (a deletion is sent once its Undo window
 * has passed; a deleted post's replies carry nothing any more), a deleted account's uploads. Their uploads leave with them, freeing the uploaders' space. Returns
 * the addresses collected.
 */
export async function collectAttachments(db: Database, before: number, blobs: BlobStore = sqlBlobStore): Promise<string[]> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ sha256: string }>(
      `SELECT a.sha256 FROM attachments a
       WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.attachments @> jsonb_build_array(jsonb_build_object('sha256', a.sha256)))
         AND NOT EXISTS (SELECT 1 FROM replies r WHERE r.attachments @> jsonb_build_array(jsonb_build_object('sha256', a.sha256))
                         AND r.state <> 'deleted' AND EXISTS (SELECT 1 FROM posts p WHERE p.id = r.post_id))
         AND NOT EXISTS (SELECT 1 FROM attachment_uploads u WHERE u.sha256 = a.sha256 AND u.at >= $1)
         AND a.created_at < $1
       FOR UPDATE OF a SKIP LOCKED`,
      [before],
    );
    const gone = rows.map((row) => String(row.sha256));
    if (gone.length === 0) return gone;
    await blobs.remove(tx, gone);
    await tx.query('DELETE FROM attachments WHERE sha256 = ANY($1::text[])', [gone]);
    return gone;
  });
}
