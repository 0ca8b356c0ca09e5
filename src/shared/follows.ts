// Following (issue 62): how closely a member follows a post, a category or a tag, and how far they
// have read each post. One rule for the server and the device: what a member's levels make of one
// post (effectiveLevel), and how many of its replies are new to them (countUnread).
//
// Levels (PRODUCT.md, "Following"):
// - Watching: told of every new reply (in the app; by email when the member chose email).
// - Normal: today's rules (replies to their posts, quotes, mentions).
// - Muted: never told; a muted category's or tag's posts leave the forum list, trending topics and
//   search (unless searched for by `category:` or `tag:`); a muted post leaves the list.
// A post's own level wins; without one, its category's (when not Normal); without that, its tags'
// (Muted when any tag is muted, else Watching when any is watched); otherwise Normal.
//
// A read position is the time (createdAt, ms) of the last reply the member read in a post (0: the
// post itself, none of its replies). It only ever moves forward: the latest read wins on every device.
import { TAG_LIMITS, tagKey } from './post-rules';
import { CATEGORY_LIMITS } from './categories';
import { validateCategory, validateTags } from './validation';
import { hiddenText } from './text-checks';

export const FOLLOW_LEVELS = ['watching', 'normal', 'muted'] as const;
export type FollowLevel = (typeof FOLLOW_LEVELS)[number];

/** What a level is called on screen (the Follow menu's items, Profile's "Following"). */
export const FOLLOW_LEVEL_NAMES: Record<FollowLevel, string> = { watching: 'Watching', normal: 'Normal', muted: 'Muted' };

/** What a level does, in one line (the menu's item descriptions). */
export const FOLLOW_LEVEL_HINTS: Record<FollowLevel, string> = {
  watching: 'Told of every new reply.',
  normal: 'Told of replies to your posts, quotes and mentions.',
  muted: 'Never told; left out of the forum list.',
};

export const FOLLOW_KINDS = ['post', 'category', 'tag'] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/** One member's level for one target (a post, a category or a tag). */
export interface Follow {
  kind: FollowKind;
  /** The target's key (followTarget): a post's id in decimal, a category's id, a tag in lower case. */
  target: string;
  level: FollowLevel;
  /** When the member chose it (ms). */
  at: number;
}

/** One member's read position in one post. */
export interface ReadPosition {
  postId: number;
  /** The createdAt (ms) of the last reply read; 0: the post read, none of its replies. */
  readTo: number;
}

export const FOLLOW_LIMITS = {
  /** Categories and tags one member may set a level on (posts are not counted: they come and go with the post). */
  topics: 500,
  /** A target's key, at most: a category's id or a tag. */
  target: Math.max(CATEGORY_LIMITS.id, TAG_LIMITS.length),
  /**
   * How long a read position may run ahead of the clock of whoever applies it (ms): a device's clock
   * may be ahead of the server's; beyond this it is cut to now + this.
   */
  readAhead: 5 * 60_000,
} as const;

/** How long the device waits after the last reply scrolled into view before it queues one read position (ms). */
export const READ_COALESCE_MS = 1_500;

// A tag's key lives with the posts' rules (the forum's first frame needs it, not the rest of this file).
export { tagKey };

/**
 * The key of a target as typed or read: a post's id in decimal, a category's id as it is, a tag by
 * tagKey; undefined when it cannot be one (the operation refuses it).
 */
export function followTarget(kind: FollowKind, raw: string): string | undefined {
  if (kind === 'post') return /^[1-9][0-9]{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? raw : undefined;
  // A category's id and a tag as a post may carry them (storable, one line, no hidden characters).
  if (kind === 'category') {
    return raw.length <= CATEGORY_LIMITS.id && validateCategory(raw) === null && hiddenText('A category', raw, 'line') === null
      ? raw
      : undefined;
  }
  const key = tagKey(raw);
  return key.length > 0 && key.length <= TAG_LIMITS.length && validateTags([raw]) === null ? key : undefined;
}

/** A member's levels as a lookup: the level they set on a target, or undefined when they set none. */
export type LevelOf = (kind: FollowKind, target: string) => FollowLevel | undefined;

/** A lookup over a list of follows. */
export function levelLookup(follows: Iterable<Pick<Follow, 'kind' | 'target' | 'level'>>): LevelOf {
  const map = new Map<string, FollowLevel>();
  for (const follow of follows) map.set(`${follow.kind}\u0000${follow.target}`, follow.level);
  return (kind, target) => map.get(`${kind}\u0000${target}`);
}

/** A post's level for a member: its own, else its category's, else its tags' (see the rule at the top). */
export function effectiveLevel(post: { id: number; category: string; tags?: readonly string[] }, levelOf: LevelOf): FollowLevel {
  const own = levelOf('post', String(post.id));
  if (own) return own;
  const category = levelOf('category', post.category);
  if (category && category !== 'normal') return category;
  let watched = false;
  for (const tag of post.tags ?? []) {
    const level = levelOf('tag', tagKey(tag));
    if (level === 'muted') return 'muted';
    if (level === 'watching') watched = true;
  }
  return watched ? 'watching' : 'normal';
}

/**
 * The level a post takes from its category or tags while it has none of its own (Normal: none), and
 * where it comes from: what its Follow menu shows until the member sets the post's own.
 */
export function inheritedLevel(
  post: { category: string; tags?: readonly string[] },
  levelOf: LevelOf,
): { level: Exclude<FollowLevel, 'normal'>; from: 'category' | 'tag' } | undefined {
  const level = effectiveLevel({ id: 0, ...post }, (kind, target) => (kind === 'post' ? undefined : levelOf(kind, target)));
  if (level === 'normal') return undefined;
  const category = levelOf('category', post.category);
  return { level, from: category && category !== 'normal' ? 'category' : 'tag' };
}

/**
 * True when a post leaves the member's lists (the forum, trending, search): its effective level is
 * Muted, unless the search names its category (`category:`) or one of its tags (`tag:`) and the post
 * itself is not muted.
 */
export function mutedOut(
  post: { id: number; category: string; tags?: readonly string[] },
  levelOf: LevelOf,
  named: { category?: string | null; tags?: readonly string[] } = {},
): boolean {
  if (effectiveLevel(post, levelOf) !== 'muted') return false;
  if (levelOf('post', String(post.id)) === 'muted') return true;
  if (named.category && named.category === post.category) return false;
  const tags = new Set((post.tags ?? []).map(tagKey));
  return !(named.tags ?? []).some((tag) => tags.has(tagKey(tag)));
}

/**
 * How many of a post's replies are new to a member: visible replies written by others after their
 * read position. A post they never read counts none (it is new as a whole, not "N new").
 */
export function countUnread(
  replies: Iterable<{ createdAt: number; authorEmail: string; state: string }>,
  readTo: number | undefined,
  reader: string,
): number {
  if (readTo === undefined) return 0;
  let count = 0;
  for (const reply of replies) if (reply.state === 'visible' && reply.createdAt > readTo && reply.authorEmail !== reader) count += 1;
  return count;
}

/** A read position as the later of two (positions only move forward). */
export const laterRead = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);

/** The post a level is asked of: its id, category and tags (the targets a member may set a level on). */
export type FollowedPost = { id: number; category: string; tags?: readonly string[] };

/** One member's level on one of a post's targets, as a store reads it (OpStore.postFollowers). */
export interface MemberLevel {
  email: string;
  kind: FollowKind;
  target: string;
  level: FollowLevel;
}

/** The members among `rows` whose effective level for `post` is `level` (each member's rows together make their lookup). */
export function membersAt(post: FollowedPost, rows: Iterable<MemberLevel>, level: FollowLevel): string[] {
  const byMember = new Map<string, MemberLevel[]>();
  for (const row of rows) byMember.set(row.email, [...(byMember.get(row.email) ?? []), row]);
  return [...byMember].filter(([, levels]) => effectiveLevel(post, levelLookup(levels)) === level).map(([email]) => email);
}

/** The keys of a post's targets, by kind: itself, its category, its tags (tagKey). */
export const targetsOf = (post: FollowedPost) => ({
  post: String(post.id),
  category: post.category,
  tags: [...new Set((post.tags ?? []).map(tagKey))],
});
