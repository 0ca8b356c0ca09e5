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
