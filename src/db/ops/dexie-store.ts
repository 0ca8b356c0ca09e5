// The operations' store on the device (src/shared/ops/store.ts): IndexedDB through Dexie, inside
// the readwrite transaction run.ts opens (OP_TABLES). Besides writing, it keeps what the device needs
// after an operation: whether anything changed (else nothing is queued), the rows as they were before
// (an Undo puts them back), the notifications it wrote and the flags it settled, and what the page must
// follow once committed (the theme cookie, the signed-in member's name).
import Dexie from 'dexie';
import { db, type PostRow, type ReplyRow, type ViewedRow } from '../storage/schema';
import { nextRev } from '../storage/revisions';
import { noteRemovedPosts } from '../storage/removals';
import type { FlagState, FlagTarget, NewNotification, Flag } from '../../shared/moderation';
import { isSilencedAt, targetKey } from '../../shared/moderation';
import type { MemberModeration, OpPost, OpStore, PostChanges, ReplyChanges, SettledFlags } from '../../shared/ops/store';
import type { Actor, PostAuthor, Reply } from '../../shared/post-rules';
import type { Theme } from '../../shared/theme';
import { withBallot } from '../../shared/polls';
import type { Attachment } from '../../shared/attachments';
import { keptAttachments } from './files-named';
import { memberId } from '../../shared/members';
import { targetsOf, type FollowedPost, type MemberLevel } from '../../shared/follows';
import { isConnectedDevice } from './sync-meta';
import type { Session } from '../types';
import { flagRow, settleFlags, targetsOfPost } from '../flags/flag-rows';
import { countLikesToday } from '../likes/like-days';
import { writeNotifications } from '../notifications/notification-rows';
import { recountComments } from '../replies/reply-counts';
import { renameOnDevice, type PreferenceEffects } from '../preferences/on-device';
import { fieldsOf } from './server-fields';
import { ownMemberId } from '../members/own-id';
import { categoryNameKey, DEFAULT_CATEGORIES, type Category } from '../../shared/categories';
import { groupNameKey } from '../../shared/groups';
import type { Conversation, Message } from '../../shared/messages';
import type { FollowKind, FollowLevel } from '../../shared/follows';

/** The fields that the search index and the lists read: a change of one gives the post a new change number (`rev`). */
const INDEXED_FIELDS = ['status', 'title', 'content', 'category', 'tags', 'author'] as const;
/** The fields an edit changes: a synced post keeps the server's while the edit is outstanding. */
const TEXT_FIELDS = ['title', 'content', 'category', 'tags'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What a deletion took off the device (its Undo puts it back). */
export interface Removed {
  post: PostRow;
  replies: ReplyRow[];
  viewed: ViewedRow[];
}

export class DexieStore implements OpStore {
  /** True once the operation changed a row here. */
  changed = false;
  /** Each post and reply as it was before the operation's first write to it. */
  readonly postsBefore = new Map<number, PostRow>();
  readonly repliesBefore = new Map<string, ReplyRow>();
  /** The post a deletion removed, with its replies and views. */
  removed?: Removed;
  /** The notifications written (local-only) and the flags settled. */
  readonly notificationIds: string[] = [];
  readonly settledFlagIds: string[] = [];
  /** What a setTheme or rename replaced (a refusal puts it back when the server never said). */
  previous: { theme?: Theme; name?: string } = {};
  /** What the page follows once the transaction has committed. */
  effects: PreferenceEffects;

  constructor(private readonly session: Session) {
    this.effects = { email: session.email };
  }

  async member(actor: Actor): Promise<PostAuthor> {
    return { email: actor.email, role: actor.role, name: this.effects.name ?? this.session.name };
  }

  async post(id: number): Promise<OpPost | undefined> {
    return db.posts.get(id);
  }

  /** The current timestamp, or the next free millisecond after it (never after the largest stored id, which an import may put far ahead). */
  async newPostId(now: number): Promise<number> {
    let id = now;
    while (await db.posts.get(id)) id += 1;
    return id;
  }

  async insertPost(post: OpPost): Promise<void> {
    await db.posts.add({ ...post, authorId: await ownMemberId(post.authorEmail), arrivedAt: Date.now(), rev: await nextRev() });
    this.changed = true;
  }

  async updatePost(id: number, changes: PostChanges): Promise<void> {
    const row = await db.posts.get(id);
    if (!row) return;
    const { hiddenAt: _hiddenAt, ...fields } = changes;
    const next: PostRow = { ...row, ...fields };
    const differs = (field: keyof PostRow) => field in fields && !same(row[field], next[field]);
    if (!Object.keys(fields).some((field) => differs(field as keyof PostRow))) return;
    if (!this.postsBefore.has(id)) this.postsBefore.set(id, row);
    // A synced post keeps the server's text while this device's edit is outstanding (a refusal restores it).
    if (row.sync && !row.sync.fields && TEXT_FIELDS.some((field) => field in fields)) next.sync = { ...row.sync, fields: fieldsOf(row) };
    if (INDEXED_FIELDS.some(differs)) next.rev = await nextRev();
    await db.posts.put(next);
    // Local-only (a post no server holds): its new title is the one its notifications name, as the
    // server's store does. A synced post's come again in the next pull, from the server, once it took the edit.
    if (!row.sync && differs('title'))
      await db.notifications.filter((notification) => notification.postId === id).modify({ postTitle: next.title });
    this.changed = true;
  }

  async addLikes(id: number, count: number): Promise<void> {
    await db.posts
      .where('id')
      .equals(id)
      .modify((row) => {
        row.likes = (row.likes || 0) + count;
      });
    await countLikesToday(count);
    this.changed = true;
  }

  async castBallot(actor: Actor, postId: number, choices: readonly number[]): Promise<void> {
    const row = await db.posts.get(postId);
    if (row?.poll) await this.updatePost(postId, { poll: withBallot(row.poll, actor.email, choices) });
  }

  async removePost(id: number): Promise<void> {
    const post = await db.posts.get(id);
    if (!post) return;
    const replies = await db.replies.where('[postId+state]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray();
    const viewed = await db.viewed.filter((view) => view.postId === id).toArray();
    this.removed = { post, replies, viewed };
    await db.replies.bulkDelete(replies.map((reply) => reply.id));
    await db.viewed.bulkDelete(viewed.map((view) => [view.email, view.postId] as [string, number]));
    await db.posts.delete(id);
    await noteRemovedPosts([id]);
    this.changed = true;
  }

  async firstView(actor: Actor, postId: number): Promise<boolean> {
    if (await db.viewed.get([actor.email, postId])) return false;
    await db.viewed.put({ email: actor.email, postId });
    return true;
  }

  async reply(id: string): Promise<Reply | undefined> {
    return db.replies.get(id);
  }

  async insertReply(reply: Reply): Promise<void> {
    await db.replies.add({ ...reply, authorId: await ownMemberId(reply.authorEmail), listed: 1, arrivedAt: Date.now() });
    this.changed = true;
  }

  async updateReply(id: string, changes: ReplyChanges): Promise<void> {
    const row = await db.replies.get(id);
    if (!row) return;
    const next: ReplyRow = { ...row, ...changes };
    next.listed = next.state === 'deleted' ? 0 : 1;
    if (same(row, next)) return;
    if (!this.repliesBefore.has(id)) this.repliesBefore.set(id, row);
    await db.replies.put(next);
    this.changed = true;
  }

  async recountComments(postId: number): Promise<void> {
    await recountComments(postId);
  }

  async hasFlagged(actor: Actor, target: FlagTarget): Promise<boolean> {
    return (
      (await db.flags
        .where('[flaggerEmail+target]')
        .equals([actor.email, targetKey(target)])
        .count()) > 0
    );
  }

  async insertFlag(flag: Flag): Promise<void> {
    await db.flags.add(flagRow(flag));
    this.changed = true;
  }

  async settleFlags(target: SettledFlags, state: Exclude<FlagState, 'open'>): Promise<void> {
    const { postId, replyId } = target;
    const targets =
      replyId === 'all'
        ? targetsOfPost(postId, await db.replies.where('[postId+state]').between([postId, Dexie.minKey], [postId, Dexie.maxKey]).toArray())
        : [{ postId, replyId }];
    const settled = await settleFlags(targets, state);
    this.settledFlagIds.push(...settled);
    if (settled.length > 0) this.changed = true;
  }

  /**
   * Local-only: the accounts of this device and the authors of the posts it holds, by their public
   * ids, but those told of a mention in `about` before (a connected device's server tells the members it mentions).
   */
  async mentionable(ids: readonly string[], about: { postId: number; replyId: string | null }): Promise<string[]> {
    const wanted = new Set(ids);
    const emails = new Set((await db.accounts.toArray()).map((account) => account.email).filter((email) => wanted.has(memberId(email))));
    for (const post of await db.posts
      .where('authorId')
      .anyOf([...ids])
      .toArray())
      if (post.authorEmail) emails.add(post.authorEmail);
    const told = await db.notifications
      .filter((row) => row.kind === 'mentioned' && row.postId === about.postId && (row.replyId ?? null) === about.replyId)
      .toArray();
    for (const row of told) emails.delete(row.email);
    return [...emails];
  }

  /** The files this device keeps (attached here): a file it does not hold is one it cannot send. */
  async attachments(_actor: Actor, wanted: readonly Pick<Attachment, 'sha256' | 'name'>[]): Promise<Attachment[] | undefined> {
    const kept = await keptAttachments(wanted);
    return kept.every((file) => file !== undefined) ? (kept as Attachment[]) : undefined;
  }

  /**
   * Local-only: the levels this device's members set on the post's targets (a connected device
   * answers none: its server tells the watchers, and leaves out who muted it).
   */
  async postFollowers(post: FollowedPost, who: 'watchers' | readonly string[]): Promise<MemberLevel[]> {
    if (await isConnectedDevice()) return [];
    const targets = targetsOf(post);
    const keys = [['post', targets.post], ['category', targets.category], ...targets.tags.map((tag) => ['tag', tag])] as const;
    // Watchers: every member with a level on this device (the first of each [email+kind] key, read by its index alone).
    const emails =
      who === 'watchers'
        ? [...new Set((await db.follows.orderBy('[email+kind]').uniqueKeys()).map((key) => String((key as unknown[])[0])))]
        : [...new Set(who)];
    const rows = (
      await db.follows.bulkGet(emails.flatMap((email) => keys.map(([kind, target]) => [email, kind, target] as [string, string, string])))
    )
      .filter((row) => row !== undefined)
      .map(({ email, kind, target, level }) => ({ email, kind, target, level }));
    if (who !== 'watchers') return rows;
    const watching = new Set(rows.filter((row) => row.level === 'watching').map((row) => row.email));
    return rows.filter((row) => watching.has(row.email));
  }

  /** Local-only: the notifications are written here (a connected device gets them from the server). */
  async notify(list: readonly NewNotification[], now: number): Promise<void> {
    const ids = await writeNotifications(list, now);
    this.notificationIds.push(...ids);
  }

  async readNotifications(actor: Actor, ids: readonly string[], at: number): Promise<void> {
    const rows = await db.notifications.bulkGet([...ids]);
    const unread = rows.filter((row) => row !== undefined && row.email === actor.email && row.unread === 1);
    if (unread.length === 0) return;
    await db.notifications.bulkPut(unread.map((row) => ({ ...row!, readAt: at, unread: 0 as const })));
    this.changed = true;
  }

  async saved(actor: Actor, postId: number): Promise<boolean | undefined> {
    return (await db.saved.get([actor.email, postId]))?.saved;
  }

  /** Saving what this device holds saved (or unsaving what it holds unsaved) changes nothing here, so nothing is queued. */
  async setSaved(actor: Actor, postId: number, saved: boolean, at: number): Promise<void> {
    const stored = await db.saved.get([actor.email, postId]);
    if (stored?.saved === saved) return;
    await db.saved.put({ email: actor.email, postId, saved, at, ...(stored?.sync ? { sync: stored.sync } : {}) });
    this.changed = true;
  }

  async setTheme(actor: Actor, theme: Theme): Promise<void> {
    const stored = await db.preferences.get(actor.email);
    this.effects.theme = theme;
    if (stored?.theme === theme) return;
    this.previous.theme = stored?.theme ?? 'system';
    await db.preferences.put({ ...(stored ?? {}), email: actor.email, theme });
    this.changed = true;
  }

  /** The server's word on this member (their preferences: `silenced`); the device refuses at once what it would refuse. */
  async isSilenced(actor: Actor): Promise<boolean> {
    return isSilencedAt((await db.preferences.get(actor.email))?.sync, Date.now());
  }

  /** A device cannot know every member: its server settles the staff's operations on them. */
  async memberToModerate(): Promise<'unknown'> {
    return 'unknown';
  }

  /**
   * Only the server records what the staff decide; a silence of an account this device holds (a
   * local-only forum's member) is written to its preferences too, so this device refuses at once.
   */
  async moderateMember(id: string, changes: MemberModeration): Promise<void> {
    if (changes.silenced === undefined) return;
    let account;
    for (const row of await db.accounts.toArray()) if ((await ownMemberId(row.email)) === id) account = row;
    if (!account) return;
    const stored = await db.preferences.get(account.email);
    const sync = stored?.sync ?? { seq: 0, theme: stored?.theme ?? 'system', name: account.name };
    const silence = changes.silenced
      ? { silenced: true, silenceReason: changes.silenceReason ?? null, silencedUntil: changes.silencedUntil ?? null }
      : { silenced: false, silenceReason: null, silencedUntil: null };
    await db.preferences.put({ ...(stored ?? { theme: 'system' }), email: account.email, sync: { ...sync, ...silence } });
    this.changed = true;
  }

  /** The open flags on the posts and replies this device holds of the member `id`. */
  async settleFlagsOfMember(id: string, state: Exclude<FlagState, 'open'>): Promise<void> {
    const posts = await db.posts.where('authorId').equals(id).primaryKeys();
    const replies = await db.replies.where('authorId').equals(id).toArray();
    const targets = [
      ...posts.map((postId) => ({ postId, replyId: null })),
      ...replies.map((reply) => ({ postId: reply.postId, replyId: reply.id })),
    ];
    const settled = await settleFlags(targets, state);
    this.settledFlagIds.push(...settled);
    if (settled.length > 0) this.changed = true;
  }

  /**
   * The spammer's posts and replies leave this device at once (the admin who deleted them stops seeing
   * them): their posts with their threads, their replies elsewhere deleted, those posts counted again.
   */
  async removeMemberContent(id: string): Promise<void> {
    const posts = await db.posts.where('authorId').equals(id).primaryKeys();
    for (const postId of posts) await this.removePost(postId);
    const replies = await db.replies
      .where('authorId')
      .equals(id)
      .filter((reply) => reply.state !== 'deleted')
      .toArray();
    for (const reply of replies) await this.updateReply(reply.id, { state: 'deleted', content: '' });
    for (const postId of new Set(replies.map((reply) => reply.postId))) await this.recountComments(postId);
    if (posts.length + replies.length > 0) this.changed = true;
  }

  /** Only the server knows every name: it refuses a taken one (`name_taken`), which undoes the rename here. */
  async nameTaken(): Promise<boolean> {
    return false;
  }

  async rename(actor: Actor, name: string): Promise<void> {
    const before = this.effects.name ?? this.session.name;
    await renameOnDevice(actor.email, name);
    this.effects.name = name;
    if (before === name) return;
    this.previous.name = before;
    this.changed = true;
  }

  /** Only the server holds every group: a device sends the Groups tab's operations as they are, and its pulls bring the groups back. */
  async group(): Promise<'unknown'> {
    return 'unknown';
  }

  /**
   * A name another group the device holds already has (an admin's device holds every group its pulls
   * told of): refused here, so the admin's form keeps what they typed. The server settles the rest.
   */
  async groupNameTaken(name: string, except: string | null): Promise<boolean> {
    const key = groupNameKey(name);
    return (await db.groups.toArray()).some((group) => group.id !== except && groupNameKey(group.name) === key);
  }

  async saveGroup(): Promise<void> {}

  async setGroupMember(): Promise<void> {}

  /**
   * A category as this device knows it: the server's last word (none: one it may not see), or one
   * of the six built in (local-only: only those). The server settles what a device cannot know.
   */
  async category(id: string): Promise<Category | undefined> {
    const held = await db.categories.get(id);
    if (held) return held.hidden === 1 ? undefined : { ...held };
    return DEFAULT_CATEGORIES.find((category) => category.id === id);
  }

  /** The groups this device's member is in, as its pulls told. */
  async memberGroups(): Promise<string[]> {
    return (await db.groups.filter((group) => group.member === 1).toArray()).map((group) => group.id);
  }

  /** A name another category the device knows already has (the six built in, or one its pulls told of): as groupNameTaken. */
  async categoryNameTaken(name: string, except: string): Promise<boolean> {
    const key = categoryNameKey(name);
    const held = await db.categories.toArray();
    const known = [...held, ...DEFAULT_CATEGORIES.filter((builtIn) => !held.some((row) => row.id === builtIn.id))];
    return known.some((category) => category.id !== except && category.name !== '' && categoryNameKey(category.name) === key);
  }

  async saveCategory(): Promise<void> {}
  // ---- Messages (issue 61): connected mode; the device holds its member's conversations only ----

  async memberId(actor: Actor): Promise<string> {
    return ownMemberId(actor.email);
  }

  /** The server knows whether one of the member's posts or replies was approved: it refuses `messages_closed`. */
  async mayMessage(): Promise<'unknown'> {
    return 'unknown';
  }

  /** A device cannot know every member: its server refuses an unknown one (`recipient_not_found`). */
  async recipients(): Promise<'unknown'> {
    return 'unknown';
  }

  async conversation(id: string): Promise<Conversation | undefined> {
    const row = await db.conversations.get(id);
    if (!row || row.email !== this.session.email) return undefined;
    const { email: _email, lastReadAt: _read, left, seq: _seq, ...conversation } = row;
    // Left here, before the server said so: the member's own place shows it.
    const me = await ownMemberId(this.session.email);
    return left
      ? { ...conversation, participants: conversation.participants.map((one) => (one.id === me ? { ...one, left: true } : one)) }
      : conversation;
  }

  async insertConversation(conversation: Conversation): Promise<void> {
    await db.conversations.add({ ...conversation, email: this.session.email, lastReadAt: null, left: false });
    this.changed = true;
  }

  async insertMessage(message: Message): Promise<void> {
    await db.messages.add({ ...message });
    const conversation = await db.conversations.get(message.conversationId);
    if (conversation && conversation.updatedAt < message.createdAt)
      await db.conversations.update(message.conversationId, { updatedAt: message.createdAt });
    this.changed = true;
  }

  async readConversation(_actor: Actor, id: string, at: number): Promise<void> {
    await db.conversations.update(id, { lastReadAt: at });
    this.changed = true;
  }

  async leaveConversation(_actor: Actor, id: string): Promise<void> {
    await db.conversations.update(id, { left: true });
    this.changed = true;
  }

  async message(id: string): Promise<Message | undefined> {
    const row = await db.messages.get(id);
    if (!row) return undefined;
    const { seq: _seq, ...message } = row;
    return message;
  }

  /** A device keeps no flag of a message: its server answers for it. */
  async flagMessage(): Promise<boolean> {
    return true;
  }

  /** Nor dismisses one: its server does. */
  async dismissMessageFlags(): Promise<boolean> {
    return true;
  }

  // ---- Following (issue 62): the member's levels and read positions; `unread` is kept by db/follows/unread-upkeep.ts ----

  async followLevel(actor: Actor, kind: FollowKind, target: string): Promise<FollowLevel | undefined> {
    return (await db.follows.get([actor.email, kind, target]))?.level;
  }

  async topicFollows(actor: Actor): Promise<number> {
    const rows = await db.follows
      .where('[email+kind]')
      .anyOf([
        [actor.email, 'category'],
        [actor.email, 'tag'],
      ])
      .toArray();
    return rows.filter((row) => row.level !== 'normal').length;
  }

  /** Setting the level a target has here changes nothing, so nothing is queued. */
  async setFollow(actor: Actor, kind: FollowKind, target: string, level: FollowLevel, at: number): Promise<void> {
    const stored = await db.follows.get([actor.email, kind, target]);
    if (stored?.level === level) return;
    await db.follows.put({ email: actor.email, kind, target, level, at, ...(stored?.sync ? { sync: stored.sync } : {}) });
    this.changed = true;
  }

  async readPosition(actor: Actor, postId: number): Promise<number | undefined> {
    return (await db.reads.get([actor.email, postId]))?.readTo;
  }

  /** A position at or before the one held changes nothing (positions only move forward), so nothing is queued. */
  async advanceRead(actor: Actor, postId: number, readTo: number): Promise<void> {
    const stored = await db.reads.get([actor.email, postId]);
    if (stored && stored.readTo >= readTo) return;
    await db.reads.put({ email: actor.email, postId, readTo, unread: 0, ...(stored?.sync ? { sync: stored.sync } : {}) });
    this.changed = true;
  }

  async autoWatch(actor: Actor): Promise<boolean> {
    return (await db.preferences.get(actor.email))?.autoWatch ?? true;
  }

  async setAutoWatch(actor: Actor, on: boolean): Promise<void> {
    const stored = await db.preferences.get(actor.email);
    if ((stored?.autoWatch ?? true) === on) return;
    await db.preferences.put({ ...(stored ?? { theme: 'system' }), email: actor.email, autoWatch: on });
    this.changed = true;
  }
}
