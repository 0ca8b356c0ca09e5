// approve and reject: an admin reviews a pending post, first one wins (`already_reviewed`). A
// rejection keeps its reason (none: null), an approval clears it; a review ends a resubmitted post's
// mark; the author hears of it.
import { notificationsForReview } from '../moderation';
import type { Actor } from '../post-rules';
import { ABOUT_POST, defineOp, refuse, type OpContext } from './define';
import { reasonText } from './fields';
import type { OpStore } from './store';
import { tellMentioned, tellWatchers } from './rules';

async function review(
  store: OpStore,
  actor: Actor,
  postId: number,
  status: 'approved' | 'rejected',
  reason: string | null,
  context: OpContext,
) {
  context.about(postId);
  const post = await store.post(postId);
  if (!post) refuse('not_found');
  if (post.status !== 'pending') refuse('already_reviewed');
  const kept = status === 'rejected' ? reason : null;
  await store.updatePost(postId, { status, reason: kept, reviewedAt: context.now, ...(post.resubmitted ? { resubmitted: false } : {}) });
  await store.notify(notificationsForReview(post, status, kept, actor), context.now);
  // On the forum now: the members it mentions are told, and the watchers of its category or tags
  // (as Discourse's "Watching" a category does: a watched category tells of its new posts).
  if (status === 'approved') {
    const about = { post, replyId: null, author: post };
    const mentioned = await tellMentioned(store, actor, post.content, about, context.now);
    await tellWatchers(store, actor, about, context.now, mentioned);
  }
}

export const approve = defineOp('approve', 1, 'admin', {
  staff: { when: 'always', verb: () => 'approved' },
  // Before protocol 4 a member's review was refused `forbidden`.
  legacyCodes: [{ code: 'admins_only', before: 4, as: 'forbidden' }],
  ...ABOUT_POST,
  run: (store, actor, { postId }, context) => review(store, actor, postId, 'approved', null, context),
});

export const reject = defineOp('reject', 1, 'admin', {
  staff: { when: 'always', verb: () => 'rejected' },
  legacyCodes: [{ code: 'admins_only', before: 4, as: 'forbidden' }],
  // Version 4: an optional reason.
  wire: (z, f) => ({ postId: f.postId, reason: z.unknown().optional() }),
  parse: (op) => ({ postId: op.postId, reason: reasonText(op.reason) ?? undefined }),
  run: (store, actor, { postId, reason }, context) => review(store, actor, postId, 'rejected', reason ?? null, context),
});
