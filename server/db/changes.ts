// Pull by cursor: the posts a viewer may see whose change number is above the cursor, in pages.
// The page stops at the head read first, and every change at or below the head has committed
// (change_head's row lock orders commits), so a cursor handed out never skips a late commit.
import type { PullResponse } from '../../src/shared/protocol';
import type { Sql } from './adapter';
import type { UserRow } from './accounts';
import { toWirePost, visibleTo, type PostRow } from './post-rows';

/** The newest change number. */
export async function changeHead(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ seq: unknown }>('SELECT seq FROM change_head');
  return Number(row?.seq ?? 0);
}

/** One page of changes after `after` that `viewer` may see, oldest first. */
export async function pullChanges(sql: Sql, viewer: UserRow, after: number, limit: number): Promise<PullResponse> {
  const head = await changeHead(sql);
  // The page comes back as one JSON text: one value to hand over instead of 15 per row (PGlite
  // copies every value out of WebAssembly one by one; this halves a 1,000-post page there).
  const [page] = await sql.query<{ rows: string }>(
    `SELECT coalesce(json_agg(p ORDER BY p.seq), '[]')::text AS rows
     FROM (SELECT * FROM posts WHERE seq > $1 AND seq <= $2 AND ${visibleTo('$3', '$4')} ORDER BY seq LIMIT $5) p`,
    [after, head, viewer.role === 'admin', viewer.email, limit + 1],
  );
  const rows = JSON.parse(page!.rows) as PostRow[];
  const more = rows.length > limit;
  const posts = rows.slice(0, limit).map(toWirePost);
  return { posts, cursor: more ? posts[posts.length - 1]!.seq : head, more };
}
