// After operations settle (a pull passed them) or are refused, every row they touched shows the
// server's word again with the operations still outstanding replayed on top: the post and reply
// they were about, the flags of that post, the member's saved row, notifications and preferences,
// their levels and read positions.

import { db, type FlagRow, type OutboxRow } from '../storage/schema';
import { NO_POST_ID } from '../ops/outbox';
import { definitionOf, type AnyDefinition } from '../../shared/ops/registry';
import { refreshLocalView } from '../posts/pulled';
import { refreshReplyView } from '../replies/pulled';
import { restoreServerFlags } from '../flags/pulled';
import { restoreServerReads } from '../notifications/pulled';
import { refreshSaved } from '../saved/pulled';
import { refreshFollow, refreshRead } from '../follows/pulled';
import type { FollowKind } from '../../shared/follows';
import { refreshPreferences, type PreferenceEffects } from '../preferences/pulled';

/**
 * Shows each row these operations touched as the server's word with what is still outstanding on
 * top; call inside a readwrite transaction (OP_TABLES) once they have left the outbox. Returns the
 * preference changes for the page to follow once committed.
 */
export async function rebase(rows: readonly OutboxRow[]): Promise<PreferenceEffects[]> {
  if (rows.length === 0) return [];
  const posts = new Set(rows.map((row) => row.postId).filter((postId) => postId !== NO_POST_ID));
  for (const postId of posts) await refreshLocalView(postId);
  for (const replyId of new Set(rows.map((row) => row.replyId))) if (replyId) await refreshReplyView(replyId);
  // The flags of every post they were about (one walk of the flags: the table is small).
  const flags = posts.size > 0 ? await db.flags.filter((flag) => posts.has(flag.postId)).toArray() : [];
  for (const key of new Set(flags.map((flag: FlagRow) => flag.target))) {
    const flag = flags.find((candidate) => candidate.target === key)!;
    await restoreServerFlags({ postId: flag.postId, replyId: flag.replyId });
  }
  // What else they touched, as their definitions say (`touches`).
  const touching = (what: NonNullable<AnyDefinition['touches']>) => rows.filter((row) => definitionOf(row.op.type).touches === what);
  const reads = touching('notifications').flatMap((row) => (row.op as { ids: readonly string[] }).ids);
  if (reads.length > 0) await restoreServerReads(reads);
  for (const row of touching('saved')) await refreshSaved(row.email, row.postId);
  for (const row of touching('follows')) {
    const { kind, target } = row.op as { kind: FollowKind; target: string };
    await refreshFollow(row.email, kind, target);
  }
  // Writing a post or a reply sets its author's level on it and their position too (follow.ts, followWhatTheyWrote).
  const writes = rows.filter(
    (entry) => entry.postId !== NO_POST_ID && ['post', 'reply'].includes(definitionOf(entry.op.type).creates ?? ''),
  );
  for (const row of writes) await refreshFollow(row.email, 'post', String(row.postId));
  for (const row of [...writes, ...touching('reads')]) await refreshRead(row.email, row.postId);
  const effects: PreferenceEffects[] = [];
  for (const email of new Set(touching('preferences').map((row) => row.email))) {
    const changed = await refreshPreferences(email, rows.find((row) => row.email === email && row.previous)?.previous);
    if (changed) effects.push(changed);
  }
  return effects;
}
