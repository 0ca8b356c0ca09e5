// Categories the admins shape (issue 61, item 2), as the routes read them: whether a member may see a
// category (the six of the spec are rows like any other; a private one is seen by its groups' members
// and admins), so a page or a search of one they may not see is refused as one the forum does not have.
import type { UserRow } from '../members/accounts';
import type { Sql } from '../storage/adapter';
import { hasUnstorableText } from '../../../src/shared/text-checks';

/** True when a category of id `id` exists and `member` may see it. */
export async function maySeeCategoryId(sql: Sql, member: Pick<UserRow, 'id' | 'role'>, id: string): Promise<boolean> {
  // A NUL or a lone surrogate is no category's (and no text PostgreSQL takes).
  if (hasUnstorableText(id)) return false;
  const rows = await sql.query(
    `SELECT 1 FROM categories y WHERE y.id = $1 AND ($2::boolean OR y.see_groups IS NULL OR EXISTS (
       SELECT 1 FROM group_members g WHERE g.user_id = $3 AND g.in_group AND g.group_id = ANY(y.see_groups)))`,
    [id, member.role === 'admin', member.id],
  );
  return rows.length > 0;
}

/** The ids of the groups member `userId` is in (group_members.in_group): a Viewer's or Actor's `groups` (src/shared/visibility.ts). */
export async function memberGroupIds(sql: Sql, userId: number): Promise<string[]> {
  const rows = await sql.query<{ group_id: string }>(
    'SELECT group_id FROM group_members WHERE user_id = $1 AND in_group ORDER BY group_id',
    [userId],
  );
  return rows.map((row) => String(row.group_id));
}

/** The see list of category `id` (categories.see_groups): null when everyone sees it (or it has no row): a SeenPost's `seeGroups`. */
export async function categorySeeGroups(sql: Sql, id: string): Promise<string[] | null> {
  const [row] = await sql.query<{ see_groups: unknown }>('SELECT see_groups FROM categories WHERE id = $1', [id]);
  return row && Array.isArray(row.see_groups) ? row.see_groups.map(String) : null;
}
