// Following (issue 62): a member's level for a post, a category or a tag (follow), how far they
// have read a post (readPost), and whether writing a post or replying makes them watch it
// (setAutoWatch). Each is the member's own keeping: a silenced member may still send them.
import { FOLLOW_KINDS, FOLLOW_LEVELS, FOLLOW_LIMITS, followTarget } from '../follows';
import { maySeeCategory } from '../categories';
import type { Actor } from '../post-rules';
import type { OpStore } from './store';
import { defineOp, OpRefusal, refuseInput } from './define';
import { CATEGORY_NOT_FOUND } from '../categories';
import { visiblePost } from './rules';

/** Too many categories and tags followed (FOLLOW_LIMITS.topics). */
export const TOO_MANY_FOLLOWS = {
  title: 'Too many followed',
  message: `You can set a level on at most ${FOLLOW_LIMITS.topics} categories and tags. Set some back to Normal first.`,
};

export const follow = defineOp('follow', 8, 'member', {
  touches: 'follows',
  whileSilenced: true,
  wire: (z) => ({ kind: z.enum(FOLLOW_KINDS), target: z.unknown(), level: z.enum(FOLLOW_LEVELS) }),
  parse(op) {
    const target = typeof op.target === 'string' && op.target.length <= 200 ? followTarget(op.kind, op.target) : undefined;
    if (target === undefined)
      refuseInput({ code: 'invalid', title: 'Error', message: 'This is not a post, category or tag you can follow.' });
    return { kind: op.kind, target, level: op.level };
  },
  async run(store, actor, { kind, target, level }, context) {
    if (kind === 'post') {
      context.about(Number(target));
      await visiblePost(store, actor, Number(target));
    } else if (kind === 'category') {
      const category = await store.category(target);
      if (category !== 'unknown') {
        const groups = category ? await store.memberGroups(actor) : [];
        // As for a category that is not there: one they may not see is never named as being there.
        if (!category || !maySeeCategory(category, { role: actor.role, groups }))
          throw new OpRefusal('not_found', CATEGORY_NOT_FOUND.message, CATEGORY_NOT_FOUND.title);
      }
    }
    // Only a level other than Normal counts toward the limit: a Normal row kept (or set again) is free.
    if (kind !== 'post' && level !== 'normal' && ((await store.followLevel(actor, kind, target)) ?? 'normal') === 'normal') {
      if ((await store.topicFollows(actor)) >= FOLLOW_LIMITS.topics) refuseInput({ code: 'invalid', ...TOO_MANY_FOLLOWS });
    }
    await store.setFollow(actor, kind, target, level, context.now);
  },
});

export const readPost = defineOp('readPost', 8, 'member', {
  touches: 'reads',
  whileSilenced: true,
  wire: (z, f) => ({ postId: f.postId, readTo: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER) }),
  parse: (op) => ({ postId: op.postId, readTo: op.readTo }),
  async run(store, actor, { postId, readTo }, context) {
    context.about(postId);
    await visiblePost(store, actor, postId);
    await store.advanceRead(actor, postId, Math.min(readTo, context.now + FOLLOW_LIMITS.readAhead), context.now);
  },
});

export const setAutoWatch = defineOp('setAutoWatch', 8, 'member', {
  touches: 'preferences',
  whileSilenced: true,
  wire: (z) => ({ on: z.boolean() }),
  parse: (op) => ({ on: op.on }),
  run: (store, actor, { on }) => store.setAutoWatch(actor, on),
});

/**
 * What writing in a post does to its author's following: they watch it (unless they set a level on
 * it before, or turned "Watch what I write" off), and have read it up to what they wrote (`readTo`:
 * their reply's time; a new post: 0).
 */
export async function followWhatTheyWrote(store: OpStore, actor: Actor, postId: number, readTo: number, now: number): Promise<void> {
  const target = String(postId);
  if ((await store.followLevel(actor, 'post', target)) === undefined && (await store.autoWatch(actor))) {
    await store.setFollow(actor, 'post', target, 'watching', now);
  }
  await store.advanceRead(actor, postId, readTo, now);
}
