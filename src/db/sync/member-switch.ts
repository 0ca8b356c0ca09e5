// When another member signs in on a device (connected mode), the previous member's private posts
// (pending and rejected, theirs or, for an admin, anyone's; every post of a private category, or of one this device has not heard of) leave IndexedDB, and with the next
// mirror write the `posts` copy; the server's replies go too, and what their deletions kept for
// Undo; the previous member's notifications, levels and read positions, and the flags they could
// see (an admin: everyone's);
// the pull then starts again from zero for the new member.

import { db, type PostRow } from '../storage/schema';
import { emitLocalChange } from '../storage/changes';
import { pendingPost, type NewPostFields } from '../../shared/post-rules';
import { postFields } from '../../shared/ops/fields';
import { newPoll } from '../../shared/polls';
import { keptAttachments } from '../ops/files-named';
import { createsPost } from '../ops/outbox';
import { countChange, nextRev } from '../storage/revisions';
import { recountComments } from '../replies/reply-counts';
import { isCategory, type Session } from '../types';
import { SYNC_META, readOwner } from '../ops/sync-meta';
import { deleteUndoEntry, listUndoEntries } from '../ops/undo-entries';
import { dropConversation } from '../messages/pulled';
import { OP_TABLES } from '../ops/op-tables';
import { heldRemoved, type Revoked } from './revoked';
import { noteRemovedPosts } from '../storage/removals';
import { forgetRevoked } from './forget-revoked';

/**
 * Rows for this member's own creates that are still queued (they may have been removed at a switch),
 * as the operation made them: tags, poll and the files this device keeps. A queued create the rules
 * no longer read (an older build's) comes back with its words only.
 */
async function restoreQueuedCreates(session: Session): Promise<void> {
  const creates = await db.outbox
    .where('email')
    .equals(session.email)
    .filter((row) => createsPost(row.op.type))
    .toArray();
  for (const row of creates) {
    if (await db.posts.get(row.postId)) continue;
    // What a new post's operation carries: the post as it was written.
    const written = (row.op as { post?: unknown }).post;
    const post = (written ?? {}) as { title?: unknown; content?: unknown; category?: unknown };
    let fields: NewPostFields = {
      title: String(post.title ?? ''),
      content: String(post.content ?? ''),
      category: String(post.category ?? ''),
    };
    try {
      fields = postFields(written);
    } catch {
      // Kept as written: the server answers for it.
    }
    const files = fields.attachments ? (await keptAttachments(fields.attachments)).filter((file) => file !== undefined) : [];
    const restored: PostRow = {
      ...pendingPost(row.postId, session, fields),
      ...(fields.poll ? { poll: newPoll(fields.poll) } : {}),
      ...(files.length > 0 ? { attachments: files } : {}),
      rev: await nextRev(),
    };
    await db.posts.add(restored);
  }
}

/** Of `files`, those no post, reply or queued upload left on the device names (a file two posts carry stays with the one kept). */
async function filesNoLongerNamed(files: readonly string[]): Promise<string[]> {
  if (files.length === 0) return [];
  return db.transaction('r', [db.posts, db.replies, db.files], async () => {
    const named = new Set<string>();
    await db.posts.each((post) => post.attachments?.forEach((file) => named.add(file.sha256)));
    await db.replies.each((reply) => reply.attachments?.forEach((file) => named.add(file.sha256)));
    // And the files attached on this device (a queued create's, restored at the switch).
    await db.files.each((file) => named.add(file.sha256));
    return files.filter((file) => !named.has(file));
  });
}

/**
 * Makes the device hold only what `session` may see, when it is not the member it last synced
 * for. Returns true when it switched (the cursor is then back at 0).
 */
export async function switchMember(session: Session): Promise<boolean> {
  let revoked: Revoked = { posts: [], files: [] };
  const switched = await db.transaction('rw', [...OP_TABLES(), db.seen], async () => {
    const owner = await readOwner();
    if (owner === session.email) return false;
    if (owner !== undefined) {
      // The new member's saved posts stay, with their replies (saved posts are readable offline,
      // whatever else goes), except a hidden reply, whose text only an admin may read.
      const savedHere = new Set(
        (await db.saved.where('[email+at]').between([session.email, -Infinity], [session.email, Infinity]).toArray())
          .filter((row) => row.saved)
          .map((row) => row.postId),
      );
      // The server's posts of private categories (spaces) go, approved ones too, with their files:
      // whether this member may see them is the server's to say, and until their first pull (a
      // sign-in offline) the device would show them another group's posts. The pull from zero
      // brings back those they may see. The operations queued on them stay, as every member's:
      // each is sent when its member signs in here again.
      // A category this device has not heard of yet may be one too.
      const categories = await db.categories.toArray();
      const open = new Set(categories.filter((category) => category.see === null).map((category) => category.id));
      const spaces = new Set(categories.filter((category) => category.see !== null).map((category) => category.id));
      const maySpace = (category: string) => spaces.has(category) || !(open.has(category) || isCategory(category));
      const inSpaces = await heldRemoved(
        await db.posts.filter((row) => row.sync !== undefined && maySpace(row.category) && !savedHere.has(row.id)).primaryKeys(),
      );
      await db.posts.bulkDelete(inSpaces.posts);
      // Another member's pending and rejected posts: server posts and queued creates go; posts from
      // before this device met a server stay. A queued create keeps its files (its upload needs them).
      const queued = new Set((await db.outbox.toArray()).map((row) => row.postId));
      const mayNotSee = (row: PostRow) =>
        row.status !== 'approved' && row.authorEmail !== session.email && (row.sync !== undefined || queued.has(row.id));
      const hidden = await db.posts.filter(mayNotSee).primaryKeys();
      const unapproved = await heldRemoved(hidden);
      await db.posts.bulkDelete(hidden);
      revoked = {
        posts: [...inSpaces.posts, ...unapproved.posts],
        files: [...new Set([...inSpaces.files, ...unapproved.files])],
      };
      // The search index and the `posts` copy's import hear of them all, as of every removal.
      await noteRemovedPosts([...inSpaces.posts, ...hidden]);
      // The server's replies go too (a hidden one holds its text only for an admin): the pull
      // from zero brings back what this member may see. Replies still queued stay.
      const synced = await db.replies
        .filter((reply) => reply.sync !== undefined && !(savedHere.has(reply.postId) && reply.state !== 'hidden'))
        .toArray();
      await db.replies.bulkDelete(synced.map((reply) => reply.id));
      // Their posts count what is left (the pull recounts them as their replies come back).
      for (const postId of new Set(synced.map((reply) => reply.postId))) await recountComments(postId);
      // What another member's deletions kept for Undo holds posts this member may not see. Their
      // held operations stay and are sent when they sign in again; the pull from zero brings back
      // whatever the server keeps.
      for (const entry of await listUndoEntries()) if (entry.email !== session.email) await deleteUndoEntry(entry.token);
      // Notifications are their recipient's; flags a member sees are their own (an admin's view of
      // everyone's must not stay). The pull from zero brings back this member's.
      await db.notifications.filter((row) => row.email !== session.email).delete();
      await db.flags.filter((row) => row.flaggerEmail !== session.email).delete();
      // What another member saved and has seen is theirs too; their pull brings it back.
      await db.saved.filter((row) => row.email !== session.email).delete();
      await db.seen.filter((row) => row.email !== session.email).delete();
      // So are their levels and read positions (issue 62).
      await db.follows.filter((row) => row.email !== session.email).delete();
      await db.reads.filter((row) => row.email !== session.email).delete();
      // The groups another member could see (an admin's: every group and its members) are theirs.
      await db.groups.clear();
      await db.groupMembers.clear();
      // And the categories they could see: the pull from zero brings back this member's.
      await db.categories.clear();
      // Conversations are their participants' alone (issue 61): another member's never stay.
      for (const row of await db.conversations.filter((one) => one.email !== session.email).toArray()) await dropConversation(row.id);
      await db.meta.put({ key: SYNC_META.cursor, value: 0 });
      // Nor has this member synced here yet: until their pull from zero has finished, a list this
      // device shows empty is loading (hooks/use-first-sync.ts), never "nothing here".
      await db.meta.delete(SYNC_META.lastSyncAt);
    }
    await restoreQueuedCreates(session);
    await db.meta.put({ key: SYNC_META.owner, value: session.email });
    await countChange();
    return owner !== undefined;
  });
  if (switched) emitLocalChange('synced');
  // Committed: their copies outside IndexedDB (the `posts` copy, snapshots, cached files) go too.
  // Once committed (the replies swept too), read apart from the switch's write lock: the files no post
  // or reply left here names.
  if (revoked.files.length > 0) revoked = { ...revoked, files: await filesNoLongerNamed(revoked.files) };
  if (revoked.posts.length > 0 || revoked.files.length > 0) await forgetRevoked(revoked);
  return switched;
}
