// Change email (issue 59): the server moved the member's account to a new address, and this device
// holds the member's data under the old one (the outbox, notifications, saved posts, what was read,
// preferences, files, the offline sign-in's verifier, the mirror's authorship, the sync's owner).
// It all moves to the new address in one transaction, so the device goes on as the same member: no
// member switch, nothing wiped, the queued changes still sent.
import Dexie from 'dexie';
import { db } from '../storage/schema';
import { META_KEY_PREFIXES } from '../contracts';
import { readOwner, SYNC_META } from '../ops/sync-meta';

/** Moves every row this device keeps for `from` to `to` (nothing when they are the same). */
export async function moveMemberData(from: string, to: string): Promise<void> {
  if (from === to) return;
  const keyed = [
    db.outbox,
    db.notifications,
    db.files,
    db.viewed,
    db.saved,
    db.seen,
    db.preferences,
    db.accounts,
    db.follows,
    db.reads,
  ] as unknown as Dexie.Table<{ email: string }, unknown>[];
  await db.transaction('rw', [...keyed, db.posts, db.flags, db.meta], async () => {
    // Read, removed, put back: in some of these tables the address is part of the key.
    for (const table of keyed) {
      const mine = () => table.filter((row) => row.email === from);
      const rows = await mine().toArray();
      if (rows.length === 0) continue;
      await mine().delete();
      await table.bulkPut(rows.map((row) => ({ ...row, email: to })));
    }
    await db.posts.where('[authorEmail+id]').between([from, Dexie.minKey], [from, Dexie.maxKey]).modify({ authorEmail: to });
    await db.flags.filter((row) => row.flaggerEmail === from).modify({ flaggerEmail: to });
    const id = await db.meta.get(`${META_KEY_PREFIXES.memberId}${from}`);
    if (id) await db.meta.put({ key: `${META_KEY_PREFIXES.memberId}${to}`, value: id.value });
    if ((await readOwner()) === from) await db.meta.put({ key: SYNC_META.owner, value: to });
  });
}
