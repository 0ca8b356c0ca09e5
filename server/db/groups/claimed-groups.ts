// The forum groups the organisation's provider names (OIDC_GROUPS_CLAIM, issue 63): at each sign-in
// and each recheck, the claim's names put the member in the existing groups of those names (matched
// by their key, as group names are unique) and take them out of the groups the claim put them in
// earlier and no longer lists (group_members.source 'claim', migration 32). An admin's memberships
// are never touched, an admin's removal stands (source 'admin': the claim does not put the member
// back in until an admin adds them again), and no group is ever created. The change is the one an admin's Add to group or
// Remove from group makes (SqlStore.setGroupMember), in one transaction under the change_head lock
// like any operation, announced to the member's live streams: their devices gain or lose the private
// posts as they do after an admin's change.
import { groupNameKey } from '../../../src/shared/groups';
import type { UserRow } from '../members/accounts';
import { CHANGES_CHANNEL } from '../ops/answers';
import { ChangeNumber, SqlStore } from '../ops/sql-store';
import type { Database } from '../storage/adapter';

/** Applies the claim's group `names` to `user`; returns the group ids the member joined and left. */
export async function applyClaimedGroups(
  db: Database,
  user: UserRow,
  names: readonly string[],
): Promise<{ joined: string[]; left: string[] }> {
  const keys = [...new Set(names.map((name) => groupNameKey(name)))];
  return db.transaction(async (tx) => {
    const [head] = await tx.query('SELECT seq, last_post_id FROM change_head FOR UPDATE');
    const rows = await tx.query<{ id: string; named: boolean; in_group: boolean | null; source: string | null }>(
      `SELECT g.id, g.name_key = ANY($2::text[]) AS named, m.in_group, m.source
       FROM groups g LEFT JOIN group_members m ON m.group_id = g.id AND m.user_id = $1
       WHERE g.name_key = ANY($2::text[]) OR (m.in_group AND m.source = 'claim')`,
      [user.id, keys],
    );
    const joining = rows.filter((row) => row.named && !row.in_group && row.source !== 'admin').map((row) => String(row.id));
    const leaving = rows.filter((row) => !row.named && row.in_group && row.source === 'claim').map((row) => String(row.id));
    if (joining.length === 0 && leaving.length === 0) return { joined: [], left: [] };
    const change = new ChangeNumber(Number(head!.seq) + 1);
    const store = new SqlStore(tx, user, change, Number(head!.last_post_id));
    for (const id of joining) {
      await store.setGroupMember(id, user.memberId, true);
      await tx.query(`UPDATE group_members SET source = 'claim' WHERE group_id = $1 AND user_id = $2`, [id, user.id]);
    }
    for (const id of leaving) await store.setGroupMember(id, user.memberId, false, true);
    if (change.taken) {
      // Delivered after the commit, to the admins and the member (whose streams read their groups again).
      await tx.query('WITH head AS (UPDATE change_head SET seq = $1 RETURNING seq) SELECT pg_notify($2, $3) FROM head', [
        change.last,
        CHANGES_CHANNEL,
        store.audience.payload(change.last),
      ]);
    }
    return { joined: joining, left: leaving };
  });
}
