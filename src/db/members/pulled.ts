// Members a pull names (protocol 6, connected mode): a member renamed, or whose role changed, is one
// `members` row, not one change per post. What they wrote here takes the name and role: their posts
// and replies (by `authorId`), the notifications they caused (by `actorId`) and, on an admin's device,
// the flags they raised (by the email the server gives admins only). Runs inside the caller's
// readwrite transaction on posts, replies, notifications, flags and meta.

import { db, type PostRow, type ReplyRow } from '../storage/schema';
import { nextRev } from '../storage/revisions';
import type { WireMember } from '../../shared/protocol';

/** Gives what each member wrote on this device their name and role; returns how many rows changed. */
export async function storeServerMembers(members: readonly WireMember[]): Promise<number> {
  let changed = 0;
  for (const member of members) {
    if (!member.id) continue;
    const posts = await db.posts
      .where('authorId')
      .equals(member.id)
      .filter((post) => post.author !== member.name || post.authorRole !== member.role)
      .toArray();
    // The author is a search filter: a renamed post gets a new change number, so the index reads it again.
    let rev = posts.length > 0 ? await nextRev() : 0;
    const renamed: PostRow[] = posts.map((post) => ({ ...post, author: member.name, authorRole: member.role, rev: rev++ }));
    if (renamed.length > 0) await db.posts.bulkPut(renamed);
    const replies = await db.replies
      .where('authorId')
      .equals(member.id)
      .filter((reply) => reply.author !== member.name || reply.authorRole !== member.role)
      .toArray();
    const namedReplies: ReplyRow[] = replies.map((reply) => ({ ...reply, author: member.name, authorRole: member.role }));
    if (namedReplies.length > 0) await db.replies.bulkPut(namedReplies);
    changed += renamed.length + namedReplies.length;
    changed += await db.notifications
      .where('actorId')
      .equals(member.id)
      .filter(
        (notification) => notification.actor !== null && (notification.actor !== member.name || notification.actorRole !== member.role),
      )
      .modify({ actor: member.name, actorRole: member.role });
    if (member.email) {
      const email = member.email;
      changed += await db.flags
        .filter((flag) => flag.flaggerEmail === email && flag.flagger !== member.name)
        .modify({ flagger: member.name });
    }
  }
  return changed;
}
