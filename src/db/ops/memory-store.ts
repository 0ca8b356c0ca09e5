// The operations' store in memory (src/shared/ops/store.ts), for replaying this device's
// unconfirmed operations over the server's last word (replay.ts). It holds only the rows it was
// given: a read of anything else finds nothing (the operation is then refused, and skipped), and a
// write to anything else changes nothing. Counts, views and notifications are the server's to say.
import type { MemberLevel } from '../../shared/follows';
import type { Flag, FlagState, FlagTarget, NewNotification, Notification } from '../../shared/moderation';
import type { OpPost, OpStore, PostChanges, ReplyChanges, SettledFlags } from '../../shared/ops/store';
import type { Actor, PostAuthor, Reply } from '../../shared/post-rules';
import type { Theme } from '../../shared/theme';
import { withBallot } from '../../shared/polls';
import type { Attachment } from '../../shared/attachments';
import type { Conversation, Message } from '../../shared/messages';
import type { FollowKind, FollowLevel } from '../../shared/follows';

/** A member's preferences as the replay reads and writes them. */
export interface MemoryPreferences {
  theme: Theme;
  name: string;
  /** Following (issue 62): "Watch what I write" (absent: on). */
  autoWatch?: boolean;
}

const savedKey = (email: string, postId: number) => `${email}\n${postId}`;
const followKey = (email: string, kind: FollowKind, target: string) => `${email}\n${kind}\n${target}`;

export class MemoryStore implements OpStore {
  readonly posts = new Map<number, OpPost>();
  readonly replies = new Map<string, Reply>();
  readonly flags = new Map<string, Flag>();
  readonly notifications = new Map<string, Notification & { email: string }>();
  readonly savedRows = new Map<string, { saved: boolean; at: number }>();
  readonly preferences = new Map<string, MemoryPreferences>();
  readonly conversations = new Map<string, Conversation>();
  readonly messages = new Map<string, Message>();
  /** Following (issue 62): levels by followKey, read positions by savedKey. */
  readonly followRows = new Map<string, { level: FollowLevel; at: number }>();
  readonly readRows = new Map<string, number>();
  /** Each member's public id, when the replay was told it. */
  readonly memberIds = new Map<string, string>();

  async member(actor: Actor): Promise<PostAuthor> {
    return { email: actor.email, role: actor.role, name: this.preferences.get(actor.email)?.name ?? '' };
  }

  async post(id: number): Promise<OpPost | undefined> {
    return this.posts.get(id);
  }

  async newPostId(now: number): Promise<number> {
    return now;
  }

  async insertPost(post: OpPost): Promise<void> {
    this.posts.set(post.id, post);
  }

  async updatePost(id: number, changes: PostChanges): Promise<void> {
    const post = this.posts.get(id);
    if (!post) return;
    const { hiddenAt: _hiddenAt, ...fields } = changes;
    this.posts.set(id, { ...post, ...fields });
  }

  async addLikes(id: number, count: number): Promise<void> {
    const post = this.posts.get(id);
    if (post) this.posts.set(id, { ...post, likes: post.likes + count });
  }

  async castBallot(actor: Actor, postId: number, choices: readonly number[]): Promise<void> {
    const post = this.posts.get(postId);
    if (post?.poll) this.posts.set(postId, { ...post, poll: withBallot(post.poll, actor.email, choices) });
  }

  async removePost(id: number): Promise<void> {
    this.posts.delete(id);
  }

  /** The device queues a view only the first time a member opens a post. */
  async firstView(): Promise<boolean> {
    return true;
  }

  async reply(id: string): Promise<Reply | undefined> {
    return this.replies.get(id);
  }

  async insertReply(reply: Reply): Promise<void> {
    this.replies.set(reply.id, reply);
  }

  async updateReply(id: string, changes: ReplyChanges): Promise<void> {
    const reply = this.replies.get(id);
    if (reply) this.replies.set(id, { ...reply, ...changes });
  }

  async recountComments(): Promise<void> {}

  /** Notifications are the server's to say. */
  async mentionable(): Promise<string[]> {
    return [];
  }

  /** The replay adds outstanding changes to posts the server has: a post's files are the server's already. */
  async attachments(): Promise<Attachment[] | undefined> {
    return undefined;
  }

  async hasFlagged(actor: Actor, target: FlagTarget): Promise<boolean> {
    return [...this.flags.values()].some(
      (flag) => flag.flaggerEmail === actor.email && flag.postId === target.postId && flag.replyId === target.replyId,
    );
  }

  async insertFlag(flag: Flag): Promise<void> {
    this.flags.set(flag.id, flag);
  }

  async settleFlags(target: SettledFlags, state: Exclude<FlagState, 'open'>): Promise<void> {
    for (const flag of this.flags.values()) {
      const reached = flag.postId === target.postId && (target.replyId === 'all' || flag.replyId === target.replyId);
      if (reached && flag.state === 'open') this.flags.set(flag.id, { ...flag, state });
    }
  }

  async notify(_list: readonly NewNotification[]): Promise<void> {}

  /** Who is told is the server's to say (as notify). */
  async postFollowers(): Promise<MemberLevel[]> {
    return [];
  }

  async readNotifications(actor: Actor, ids: readonly string[], at: number): Promise<void> {
    for (const id of ids) {
      const notification = this.notifications.get(id);
      if (notification && notification.email === actor.email && notification.readAt === null)
        this.notifications.set(id, { ...notification, readAt: at });
    }
  }

  async saved(actor: Actor, postId: number): Promise<boolean | undefined> {
    return this.savedRows.get(savedKey(actor.email, postId))?.saved;
  }

  async setSaved(actor: Actor, postId: number, saved: boolean, at: number): Promise<void> {
    this.savedRows.set(savedKey(actor.email, postId), { saved, at });
  }

  /** The member's saved row as the replay left it. */
  savedOf(email: string, postId: number): { saved: boolean; at: number } | undefined {
    return this.savedRows.get(savedKey(email, postId));
  }

  async setTheme(actor: Actor, theme: Theme): Promise<void> {
    const current = this.preferences.get(actor.email);
    if (current) this.preferences.set(actor.email, { ...current, theme });
  }

  /** A replay knows no silence: its server refuses what a silenced member sent (`silenced`), which undoes it here. */
  async isSilenced(): Promise<boolean> {
    return false;
  }

  /** A device cannot know every member: its server settles the staff's operations on them. */
  async memberToModerate(): Promise<'unknown'> {
    return 'unknown';
  }

  async moderateMember(): Promise<void> {}

  /** A replay holds no spammer's rows to take away (nor their flags): the pull's tombstones, deleted replies and flags do it. */
  async settleFlagsOfMember(): Promise<void> {}

  async removeMemberContent(): Promise<void> {}

  /** Only the server knows every name: it refuses a taken one (`name_taken`), which undoes the rename here. */
  async nameTaken(): Promise<boolean> {
    return false;
  }

  async rename(actor: Actor, name: string): Promise<void> {
    const current = this.preferences.get(actor.email);
    if (current) this.preferences.set(actor.email, { ...current, name });
  }

  /** Only the server holds every group: a device sends the Groups tab's operations as they are, and its pulls bring the groups back. */
  async group(): Promise<'unknown'> {
    return 'unknown';
  }

  async groupNameTaken(): Promise<boolean> {
    return false;
  }

  async saveGroup(): Promise<void> {}

  async setGroupMember(): Promise<void> {}

  /** Only the server holds every category: a device sends the Categories tab's operations as they are. */
  async category(): Promise<'unknown'> {
    return 'unknown';
  }

  async memberGroups(): Promise<string[]> {
    return [];
  }

  async categoryNameTaken(): Promise<boolean> {
    return false;
  }

  async saveCategory(): Promise<void> {}
  // Messages (issue 61): the replay holds the conversations it was given; the server settles the rest.
  async memberId(actor: Actor): Promise<string> {
    return this.memberIds.get(actor.email) ?? '';
  }

  async mayMessage(): Promise<'unknown'> {
    return 'unknown';
  }

  async recipients(): Promise<'unknown'> {
    return 'unknown';
  }

  async conversation(id: string): Promise<Conversation | undefined> {
    return this.conversations.get(id);
  }

  async insertConversation(conversation: Conversation): Promise<void> {
    this.conversations.set(conversation.id, conversation);
  }

  async insertMessage(message: Message): Promise<void> {
    this.messages.set(message.id, message);
  }

  async readConversation(): Promise<void> {}

  async leaveConversation(actor: Actor, id: string): Promise<void> {
    const conversation = this.conversations.get(id);
    const me = this.memberIds.get(actor.email);
    if (conversation)
      this.conversations.set(id, {
        ...conversation,
        participants: conversation.participants.map((one) => (one.id === me ? { ...one, left: true } : one)),
      });
  }

  async message(id: string): Promise<Message | undefined> {
    return this.messages.get(id);
  }

  async flagMessage(): Promise<boolean> {
    return true;
  }

  /** Nor dismisses one: its server does. */
  async dismissMessageFlags(): Promise<boolean> {
    return true;
  }

  // Following (issue 62): the member's own levels and read positions, as the replay was given them.
  async followLevel(actor: Actor, kind: FollowKind, target: string): Promise<FollowLevel | undefined> {
    return this.followRows.get(followKey(actor.email, kind, target))?.level;
  }

  async topicFollows(actor: Actor): Promise<number> {
    let count = 0;
    for (const [key, row] of this.followRows)
      if (row.level !== 'normal' && !key.startsWith(`${actor.email}\npost\n`) && key.startsWith(`${actor.email}\n`)) count += 1;
    return count;
  }

  async setFollow(actor: Actor, kind: FollowKind, target: string, level: FollowLevel, at: number): Promise<void> {
    this.followRows.set(followKey(actor.email, kind, target), { level, at });
  }

  /** The member's level on a target as the replay left it. */
  followOf(email: string, kind: FollowKind, target: string): { level: FollowLevel; at: number } | undefined {
    return this.followRows.get(followKey(email, kind, target));
  }

  async readPosition(actor: Actor, postId: number): Promise<number | undefined> {
    return this.readRows.get(savedKey(actor.email, postId));
  }

  async advanceRead(actor: Actor, postId: number, readTo: number): Promise<void> {
    const key = savedKey(actor.email, postId);
    const stored = this.readRows.get(key);
    if (stored === undefined || readTo > stored) this.readRows.set(key, readTo);
  }

  async autoWatch(actor: Actor): Promise<boolean> {
    return this.preferences.get(actor.email)?.autoWatch ?? true;
  }

  async setAutoWatch(actor: Actor, on: boolean): Promise<void> {
    this.preferences.set(actor.email, { ...(this.preferences.get(actor.email) ?? { theme: 'system', name: '' }), autoWatch: on });
  }
}
