// The one small store every operation is written against. Three implement it: the device's
// IndexedDB inside a Dexie transaction (src/db/ops/dexie-store.ts), the server's PostgreSQL inside a
// SQL transaction (server/db/ops/sql-store.ts), and an in-memory one that replays the device's
// unconfirmed operations over the server's last word (src/db/ops/memory-store.ts). Reads return rows
// as they are, whoever asks: the rules of who may see what are the operations' own (rules.ts).
import type { Flag, FlagState, FlagTarget, NewNotification, PostReview } from '../moderation';
import type { Actor, Post, PostAttachments, PostAuthor, PostEdits, PostPoll, Reply } from '../post-rules';
import type { Attachment } from '../attachments';
import type { Theme } from '../theme';
import type { Group } from '../groups';
import type { Category } from '../categories';
import type { Conversation, Message } from '../messages';
import type { FollowKind, FollowLevel, FollowedPost, MemberLevel } from '../follows';

/** A post as operations read and write it: the Post, its edits and review, and its queue times. */
export interface OpPost extends Post, PostEdits, PostReview, PostPoll, PostAttachments {
  /** When it entered the review queue (its creation or last resubmission), ms. */
  submittedAt?: number;
  /** When it was last reviewed (approved, rejected or hidden), ms. */
  reviewedAt?: number;
  /**
   * Its category's see list as the server's store reads it (categories.see_groups; null or absent:
   * everyone), for the one visibility rule (maySeePost). Read, never written: no column of posts.
   */
  seeGroups?: readonly string[] | null;
}

/** What an operation changes of a post (never its id); `hiddenAt`: when an admin took it off the forum. */
export type PostChanges = Partial<Omit<OpPost, 'id' | 'seeGroups'>> & { hiddenAt?: number };

/** What an operation changes of a reply. */
export type ReplyChanges = Partial<Pick<Reply, 'content' | 'state' | 'editedAt'>>;

/** The open flags a settlement reaches: a post's own (`replyId` null), one reply's, or (`'all'`) the post's and every reply's. */
export interface SettledFlags {
  postId: number;
  replyId: string | null | 'all';
}

/** A member as the staff's operations see them. */
export interface ModeratedMember {
  role: 'admin' | 'user';
  /** True once a Delete spammer closed the account. */
  closed: boolean;
}

/** What the staff decide of a member: suspended until a time (null: not, or no longer) with a reason; silenced or not (why, until when). */
export interface MemberModeration {
  suspendedUntil?: number | null;
  suspendReason?: string | null;
  silenced?: boolean;
  silenceReason?: string | null;
  silencedUntil?: number | null;
}

export interface OpStore {
  /** The member as they are now (a rename earlier in the same push gives what they write next its new name). */
  member(actor: Actor): Promise<PostAuthor>;

  /** The post of this id, in any status, or undefined (a deleted post is gone). */
  post(id: number): Promise<OpPost | undefined>;
  /** The id a new post gets (unique here: the server's, or the device's temporary one). */
  newPostId(now: number): Promise<number>;
  insertPost(post: OpPost): Promise<void>;
  updatePost(id: number, changes: PostChanges): Promise<void>;
  /** Adds `count` likes (an increment: never read, then written). */
  addLikes(id: number, count: number): Promise<void>;
  /** Deletes the post (its replies leave with it); `by`: who deleted it. */
  removePost(id: number, by: Actor): Promise<void>;
  /** Sets the member's ballot on the post's poll to `choices` (their earlier one replaced); the post shows the new counts. */
  castBallot(actor: Actor, postId: number, choices: readonly number[]): Promise<void>;
  /** Records the member's view of the post; true the first time only. */
  firstView(actor: Actor, postId: number): Promise<boolean>;

  /** The reply of this id, in any state, or undefined. */
  reply(id: string): Promise<Reply | undefined>;
  insertReply(reply: Reply): Promise<void>;
  updateReply(id: string, changes: ReplyChanges): Promise<void>;
  /** Sets the post's `comments` to the number of its visible replies. */
  recountComments(postId: number): Promise<void>;

  /** True when the member has flagged this post or reply before (a member flags an item once, ever). */
  hasFlagged(actor: Actor, target: FlagTarget): Promise<boolean>;
  insertFlag(flag: Flag): Promise<void>;
  /** Moves the open flags of `target` to `state`. */
  settleFlags(target: SettledFlags, state: Exclude<FlagState, 'open'>): Promise<void>;

  /**
   * The emails of the members of these public ids who can be told of a mention in `about` (the post,
   * replyId null, or one of its replies): their accounts are open and they were not told of a mention
   * there before (their "mentioned" notification is the record), so an edit that takes a mention out
   * and puts it back tells nobody twice. A connected device answers none: its server tells them.
   */
  mentionable(ids: readonly string[], about: { postId: number; replyId: string | null }): Promise<string[]>;
  /**
   * The files a member attaches, as this store knows them (type, size and pixels from the bytes,
   * the name the member gave), in the order asked; undefined when one was never uploaded by them
   * (the server) or is not on this device (local-only). A connected device answers what it keeps.
   */
  attachments(actor: Actor, wanted: readonly Pick<Attachment, 'sha256' | 'name'>[]): Promise<Attachment[] | undefined>;
  /** Writes these notifications (one per recipient who has an account here). */
  notify(list: readonly NewNotification[], now: number): Promise<void>;
  /** Marks the member's own unread notifications among `ids` read at `at`; others' ids change nothing. */
  readNotifications(actor: Actor, ids: readonly string[], at: number): Promise<void>;

  /** The member's saved state of the post: true, false (unsaved), or undefined (never saved). */
  saved(actor: Actor, postId: number): Promise<boolean | undefined>;
  setSaved(actor: Actor, postId: number, saved: boolean, at: number): Promise<void>;
  setTheme(actor: Actor, theme: Theme): Promise<void>;
  /** True when the staff silenced the member (their server's word; a device that never heard it answers false). */
  isSilenced(actor: Actor): Promise<boolean>;
  /**
   * The member of public id `id` as staff act on them (their role, whether their account is closed),
   * undefined when nobody has that id; 'unknown' on a device, which cannot know every member.
   */
  memberToModerate(id: string): Promise<ModeratedMember | 'unknown' | undefined>;
  /** Records what the staff decided of the member `id` (a suspension and its reason, a silence). */
  moderateMember(id: string, changes: MemberModeration): Promise<void>;
  /** Moves the open flags on what the member `id` wrote (their posts' own flags and their replies') to `state`. */
  settleFlagsOfMember(id: string, state: Exclude<FlagState, 'open'>): Promise<void>;
  /** Takes everything the member `id` wrote off the forum (posts and replies) and closes their account. */
  removeMemberContent(id: string, by: Actor): Promise<void>;
  /**
   * True when another member already has a name of `name`'s key (names.ts). Only the server knows
   * every name: a device answers false, and its server's refusal (`name_taken`) undoes the rename.
   */
  nameTaken(actor: Actor, name: string): Promise<boolean>;
  /** Gives the member `name` (on their account and as the author of what they wrote). */
  rename(actor: Actor, name: string): Promise<void>;

  /**
   * The group of this id (groups.ts), undefined when nobody has it; 'unknown' on a device, which holds
   * the groups its server sent (a member's device: only their own), never all of them.
   */
  group(id: string): Promise<Group | 'unknown' | undefined>;
  /** True when a group other than `except` has a name of `name`'s key: the server's word; a device answers from the groups its pulls told of (an admin's: every one). */
  groupNameTaken(name: string, except: string | null): Promise<boolean>;
  /** Writes the group (new, or its name and description changed); the server's alone: a device gets it back in a pull. */
  saveGroup(group: Group): Promise<void>;
  /** Puts the member of public id `memberId` in the group (`member` true) or takes them out; the server's alone. */
  setGroupMember(groupId: string, memberId: string, member: boolean): Promise<void>;
  /**
   * The category of this id (categories.ts), undefined when nobody has it; 'unknown' on a device
   * (only the server holds every category).
   */
  category(id: string): Promise<Category | 'unknown' | undefined>;
  /** True when a category other than `except` has a name of `name`'s key: the server's word; a device answers from the six and the categories its pulls told of. */
  categoryNameTaken(name: string, except: string): Promise<boolean>;
  /** The ids of the groups `actor` is in (a device: those its pulls told of). */
  memberGroups(actor: Actor): Promise<string[]>;
  /** Writes the category (new, or changed); the server's alone: a device gets it back in a pull. */
  saveCategory(category: Category): Promise<void>;
  // Messages (issue 61): connected mode; a device holds only the conversations its member takes part in.
  /** The member's public id (a device: the one it remembers for them). */
  memberId(actor: Actor): Promise<string>;
  /**
   * Whether the member may send messages yet (one of their posts or replies approved): the server's
   * word; a device answers 'unknown' and its server refuses (`messages_closed`).
   */
  mayMessage(actor: Actor): Promise<boolean | 'unknown'>;
  /**
   * Of these public ids, the confirmed members with an open account, with their names (in the order
   * asked; a missing one: undefined in its place); 'unknown' on a device, which cannot know every member.
   */
  recipients(ids: readonly string[]): Promise<({ id: string; name: string } | undefined)[] | 'unknown'>;
  /** The conversation of this id with its participants, or undefined. */
  conversation(id: string): Promise<Conversation | undefined>;
  /** Starts a conversation (its participants as given, none left). */
  insertConversation(conversation: Conversation): Promise<void>;
  /** Adds a message to its conversation, whose `updatedAt` becomes the message's time. */
  insertMessage(message: Message): Promise<void>;
  /** Marks the conversation read by the member at `at` (their own place in it only). */
  readConversation(actor: Actor, id: string, at: number): Promise<void>;
  /** The member leaves the conversation: they read and receive none of it any more. */
  leaveConversation(actor: Actor, id: string, at: number): Promise<void>;
  /** The message of this id, or undefined. */
  message(id: string): Promise<Message | undefined>;
  /**
   * Flags the message to the admins (its conversation goes with it): false when the member flagged
   * it before. A device keeps none (true): its server answers `already_flagged`.
   */
  flagMessage(actor: Actor, message: Message, flag: { id: string; reason: string; text: string; at: number }): Promise<boolean>;
  /**
   * Dismisses the open flags of the message (an admin): false when there is no such message. A device
   * keeps no flag (true): its server answers.
   */
  dismissMessageFlags(messageId: string): Promise<boolean>;
  // Following (issue 62): the member's own levels and read positions.
  /** The member's level on a target (follows.ts, followTarget's key), or undefined when they set none. */
  followLevel(actor: Actor, kind: FollowKind, target: string): Promise<FollowLevel | undefined>;
  /** How many categories and tags the member has a level other than Normal on (FOLLOW_LIMITS.topics). */
  topicFollows(actor: Actor): Promise<number>;
  /** Sets the member's level on a target (Normal too: it is kept, so writing there no longer makes them watch it). */
  setFollow(actor: Actor, kind: FollowKind, target: string, level: FollowLevel, at: number): Promise<void>;
  /** The member's read position in the post (follows.ts), or undefined when they never read it. */
  readPosition(actor: Actor, postId: number): Promise<number | undefined>;
  /** Moves the member's read position in the post to `readTo` when that is later (never back). */
  advanceRead(actor: Actor, postId: number, readTo: number, at: number): Promise<void>;
  /**
   * The levels set on the post's targets (itself, its category, its tags: follows.ts targetsOf) by
   * its watchers (`'watchers'`: every member watching one of them, who may sign in) or by the members
   * `who` names (emails). The caller makes their effective levels (membersAt). A connected device
   * answers none (its server tells); a local-only device its accounts' levels.
   */
  postFollowers(post: FollowedPost, who: 'watchers' | readonly string[]): Promise<MemberLevel[]>;
  /** Whether writing a post or replying makes the member watch it (Profile's "Watch what I write"; default true). */
  autoWatch(actor: Actor): Promise<boolean>;
  setAutoWatch(actor: Actor, on: boolean): Promise<void>;
}
