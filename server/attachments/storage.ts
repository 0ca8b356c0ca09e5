// Where attachments' bytes live (issue 42), behind one interface so that every instance sees the
// same files: in PostgreSQL by default (PGlite's one folder to back up, or the PostgreSQL server),
// keyed by their SHA-256, so a file uploaded twice, by anyone, is stored once. Object storage
// (S3-compatible) is the step past it (docs/scaling.md): the same interface over a bucket.
import type { Sql } from '../db/storage/adapter';

export interface BlobStore {
  /** Stores `bytes` under `sha256` (nothing when they are stored already). */
  put(sql: Sql, sha256: string, bytes: Uint8Array): Promise<void>;
  /** The bytes of `sha256`, or undefined. */
  get(sql: Sql, sha256: string): Promise<Uint8Array | undefined>;
}

/** The default: a bytea row per file (attachment_blobs, migration 15). */
export const sqlBlobStore: BlobStore = {
  async put(sql, sha256, bytes) {
    await sql.query('INSERT INTO attachment_blobs (sha256, bytes) VALUES ($1, $2) ON CONFLICT DO NOTHING', [sha256, Buffer.from(bytes)]);
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
