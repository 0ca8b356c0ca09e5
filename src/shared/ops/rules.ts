// The reads several operations share, each with its refusal: the post a member may see, the reply
// they may see, their own reply. Written once over the store, so the device and the server refuse
// the same things with the same codes.
import { maySee, type Actor, type Reply } from '../post-rules';
import { mentionedIds } from '../mentions';
import { notificationsForMentions, notificationsForWatchers, type NewNotification } from '../moderation';
import { membersAt, type FollowedPost } from '../follows';
import { refuse, refuseInput, type OpContext, type OpDefinition } from './define';
import { CATEGORY_ARCHIVED, mayPostIn, maySeeCategory } from '../categories';
import type { OpPost, OpStore } from './store';

/** The post an operation is about, which `actor` may see (else `not_found`); named as its subject. */
export function subjectPost(store: OpStore, actor: Actor, postId: number, context: OpContext): Promise<OpPost> {
  context.about(postId);
  return visiblePost(store, actor, postId);
}

/** The reply an operation is about, visible to `actor` (else `reply_not_found`), with its post; named as its subject. */
export async function subjectReply(
  store: OpStore,
  actor: Actor,
  replyId: string,
  context: OpContext,
): Promise<{ reply: Reply; post: OpPost }> {
  const found = await visibleReply(store, actor, replyId);
  context.about(found.post.id, replyId);
  return found;
}

/** The post `actor` may see (else `not_found`). */
export async function visiblePost(store: OpStore, actor: Actor, postId: number): Promise<OpPost> {
  const post = await store.post(postId);
  if (!post || !maySee(post, actor)) refuse('not_found');
  return post;
}

/** A reply that is not deleted, on a post `actor` may see (else `reply_not_found`), with its post. */
export async function visibleReply(store: OpStore, actor: Actor, replyId: string): Promise<{ reply: Reply; post: OpPost }> {
  const reply = await store.reply(replyId);
  const post = reply && reply.state !== 'deleted' ? await store.post(reply.postId) : undefined;
  if (!reply || !post || !maySee(post, actor)) refuse('reply_not_found');
  return { reply, post };
}

/** The reply an operation is about, which `actor` wrote (else `reply_not_found`, or `not_your_reply`: an admin is the author of their own replies only). */
export async function ownReply(store: OpStore, actor: Actor, replyId: string, context: OpContext): Promise<{ reply: Reply; post: OpPost }> {
  const found = await subjectReply(store, actor, replyId, context);
  if (found.reply.authorEmail !== actor.email) refuse('not_your_reply');
  return found;
}

/**
 * The one rule of silence: a member the staff silenced reads, but writes nothing (no post, reply,
 * edit, like, flag, vote, rename, closed poll, upload). Every operation of a member goes through it
 * (runOp) unless its definition says `whileSilenced`; the server's like path and upload route ask
 * `silenceRefuses` of the member's row, as the definitions ask it of the store.
 */
export function silenceRefuses(definition: Pick<OpDefinition, 'who' | 'whileSilenced'>, silenced: boolean): boolean {
  // Staff cannot be silenced (`staff_member`): an admin's operation is never asked.
  return silenced && definition.who === 'member' && !definition.whileSilenced;
}

/** What an upload is to the rule of silence: the first half of a post, reply or edit. */
export const UPLOAD: Pick<OpDefinition, 'who' | 'whileSilenced'> = { who: 'member' };

/** Refuses `silenced` when the one rule of silence refuses `definition` to `actor` (the store knows whether they are silenced). */
export async function maySend(store: OpStore, actor: Actor, definition: Pick<OpDefinition, 'who' | 'whileSilenced'>): Promise<void> {
  // The store is asked only when the rule could refuse (its read is one more query on the server).
  if (silenceRefuses(definition, true) && (await store.isSilenced(actor))) refuse('silenced');
}

/** Runs `definition` for `actor`: the rule of silence first, then its own rule and effect. Every runner (device, replay, server) runs it so. */
export async function runOp(
  definition: Pick<OpDefinition, 'who' | 'whileSilenced'> & {
    run(store: OpStore, actor: Actor, args: never, context: OpContext): Promise<void>;
  },
  store: OpStore,
  actor: Actor,
  args: unknown,
  context: OpContext,
): Promise<void> {
  await maySend(store, actor, definition);
  await definition.run(store, actor, args as never, context);
}

/**
 * The member of public id `memberId` whom an admin acts on (Members): refused when nobody has that id
 * or the account is closed (`member_not_found`), or when it is a staff account (`staff_member`: the
 * admin's own too). A device cannot know every member: it acts on trust, and its server settles it.
 */
export async function staffTarget(store: OpStore, memberId: string): Promise<void> {
  const target = await store.memberToModerate(memberId);
  if (target === 'unknown') return;
  if (!target || target.closed) refuse('member_not_found');
  if (target.role === 'admin') refuse('staff_member');
}

/**
 * Refuses a post in a category `actor` may not post in (issue 61): one nobody has or they may not
 * see (the same sentence: a private category's existence is not told), an archived one, or one only
 * some groups post in. A store that cannot know (the replay of an outstanding operation) lets it be.
 */
export async function postableCategory(store: OpStore, actor: Actor, id: string): Promise<void> {
  const category = await store.category(id);
  if (category === 'unknown') return;
  const viewer = { role: actor.role, groups: category ? await store.memberGroups(actor) : [] };
  if (!category || !maySeeCategory(category, viewer)) {
    refuseInput({ code: 'invalid', title: 'Error', message: 'Please choose one of the forum’s categories.' });
  }
  if (category.archived) refuseInput({ code: 'invalid', ...CATEGORY_ARCHIVED });
  if (!mayPostIn(category, viewer)) {
    refuseInput({ code: 'invalid', title: 'Not in this category', message: 'Only some groups post in this category. Choose another one.' });
  }
}

/** What a post or reply tells of: the post, the reply (null: the post itself) and who wrote it. */
export interface Telling {
  post: Pick<OpPost, 'id' | 'title' | 'category' | 'tags'>;
  replyId: string | null;
  author: Pick<OpPost, 'author' | 'authorEmail'>;
}

/**
 * Tells the members `text` mentions (mentions.ts), once the post or reply is visible to them, and once
 * only (store.mentionable), but not those who muted the post (issue 62); returns whom it told.
 */
export async function tellMentioned(
  store: OpStore,
  actor: Actor,
  text: string,
  about: Telling,
  now: number,
  told: readonly NewNotification[] = [],
): Promise<NewNotification[]> {
  const ids = mentionedIds(text);
  if (ids.length === 0) return [];
  const recipients = await store.mentionable(ids, { postId: about.post.id, replyId: about.replyId });
  return tellUnmuted(store, about.post, notificationsForMentions(about.post, about.replyId, about.author, recipients, actor, told), now);
}

/**
 * Writes `list` but to the members whose level for `post` is Muted (issue 62: never told, not of
 * replies, quotes or mentions there); returns what it wrote.
 */
export async function tellUnmuted(
  store: OpStore,
  post: FollowedPost,
  list: readonly NewNotification[],
  now: number,
): Promise<NewNotification[]> {
  const emails = [...new Set(list.map((notification) => notification.recipientEmail))];
  const muted = emails.length === 0 ? [] : membersAt(post, await store.postFollowers(post, emails), 'muted');
  const told = muted.length === 0 ? [...list] : list.filter((notification) => !muted.includes(notification.recipientEmail));
  await store.notify(told, now);
  return told;
}

/**
 * Tells the post's watchers (issue 62: their effective level for it is Watching) of a new reply
 * (`replyId`), or of the post on the forum (`replyId` null: approved in a category or tag they watch;
 * a post's own level cannot be set before it is there). Nobody `told` already hears it twice; the
 * store's notify leaves out whoever may not see the post, and collapses a reply's into the
 * watcher's unread one of the post (moderation.ts, collapses).
 */
export async function tellWatchers(
  store: OpStore,
  actor: Actor,
  about: Telling,
  now: number,
  told: readonly NewNotification[],
): Promise<void> {
  const watchers = membersAt(about.post, await store.postFollowers(about.post, 'watchers'), 'watching');
  if (watchers.length === 0) return;
  await store.notify(notificationsForWatchers(about.post, about.replyId, about.author, watchers, actor, told), now);
}
