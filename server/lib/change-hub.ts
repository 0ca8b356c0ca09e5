// The live side of changes: one LISTEN on `ie_changes` per instance (PGlite in-process, PostgreSQL
// across instances) fanned out to this instance's SSE streams, coalesced so a burst is one message.
// A change's NOTIFY names who may see it (db/sync/audience.ts); the streams are indexed by account,
// by group and as admins, so a change wakes only its audience's streams, with work in proportion to
// them and to the groups it names, never to members × groups. A woken stream announces the newest
// change (the device pulls, and the pull filters).
import type { Database } from '../db/storage/adapter';
import { changeHead } from '../db/sync/changes';
import { parsePayload, type HeardChange } from '../db/sync/audience';
import { CHANGES_CHANNEL } from '../db/ops/answers';

type Listener = (cursor: number) => void;

/** Whose stream it is: the account (users.id) and whether it is an admin's. */
export interface StreamMember {
  userId: string | number;
  admin: boolean;
}

interface Entry {
  listener: Listener;
  /** Absent: a listener told of every change. */
  userId?: string;
  admin: boolean;
  groups: readonly string[];
}

const addTo = <K>(index: Map<K, Set<Entry>>, key: K, entry: Entry) => {
  const set = index.get(key);
  if (set) set.add(entry);
  else index.set(key, new Set([entry]));
};
const removeFrom = <K>(index: Map<K, Set<Entry>>, key: K, entry: Entry) => {
  const set = index.get(key);
  if (!set) return;
  set.delete(entry);
  if (set.size === 0) index.delete(key);
};

export class ChangeHub {
  private readonly entries = new Set<Entry>();
  private readonly admins = new Set<Entry>();
  private readonly byUser = new Map<string, Set<Entry>>();
  private readonly byGroup = new Map<string, Set<Entry>>();
  /** The listeners told of every change (no member). */
  private readonly everything = new Set<Entry>();
  private head = 0;
  private scheduled = false;
  /** Whom the next flush tells: everyone, or these. */
  private wakeAll = false;
  private readonly waking = new Set<Entry>();
  /** The reads of an account's groups under way, by account (the newest one's answer is kept). */
  private readonly regrouping = new Map<string, number>();
  private stop?: () => Promise<void>;

  constructor(private readonly db: Database) {}

  /** Starts listening; resolves once NOTIFYs are heard. */
  async start(): Promise<void> {
    this.head = await changeHead(this.db);
    this.stop = await this.db.listen(CHANGES_CHANNEL, (payload) => {
      const heard = parsePayload(payload);
      if (heard) this.heard(heard);
    });
  }

  /** The newest change number this instance knows of. */
  get cursor(): number {
    return this.head;
  }

  /**
   * Calls `listener` with the new head after changes `member` may see (without a member: every change);
   * returns the unsubscribe function. A member's groups are read here, and again when a change names them.
   */
  subscribe(listener: Listener, member?: StreamMember): () => void {
    if (!member) {
      const entry: Entry = { listener, admin: false, groups: [] };
      this.entries.add(entry);
      this.everything.add(entry);
      return () => this.remove(entry);
    }
    const entry = this.add(listener, member, []);
    if (!entry.admin) void this.regroup(entry.userId!);
    return () => this.remove(entry);
  }

  /** Subscribes a member whose groups are known (a test, a benchmark): no read. */
  subscribeWithGroups(listener: Listener, member: StreamMember, groups: readonly string[]): () => void {
    const entry = this.add(listener, member, groups);
    return () => this.remove(entry);
  }

  /** A member's stream, indexed by its account, as an admin's, and by `groups`. */
  private add(listener: Listener, member: StreamMember, groups: readonly string[]): Entry {
    const entry: Entry = { listener, admin: member.admin, userId: String(member.userId), groups: [...groups] };
    this.entries.add(entry);
    addTo(this.byUser, entry.userId!, entry);
    if (entry.admin) this.admins.add(entry);
    for (const group of entry.groups) addTo(this.byGroup, group, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.admins.clear();
    this.byUser.clear();
    this.byGroup.clear();
    this.everything.clear();
    this.waking.clear();
    await this.stop?.();
  }

  private remove(entry: Entry): void {
    if (!this.entries.delete(entry)) return;
    this.everything.delete(entry);
    this.admins.delete(entry);
    this.waking.delete(entry);
    if (entry.userId !== undefined) removeFrom(this.byUser, entry.userId, entry);
    for (const group of entry.groups) removeFrom(this.byGroup, group, entry);
  }

  /**
   * Reads the groups of account `userId` and indexes its streams by them. A change heard while it
   * read may have named a group it had not indexed yet: those streams are told the head once more.
   */
  private async regroup(userId: string, again = false): Promise<void> {
    // A read under way serves a stream opened meanwhile (it indexes every stream of the account); a
    // change of the account's groups starts a new one.
    if (!again && this.regrouping.has(userId)) return;
    const ticket = (this.regrouping.get(userId) ?? 0) + 1;
    this.regrouping.set(userId, ticket);
    const headBefore = this.head;
    let groups: string[];
    try {
      const rows = await this.db.query<{ group_id: string }>('SELECT group_id FROM group_members WHERE user_id = $1 AND in_group', [
        userId,
      ]);
      groups = rows.map((row) => String(row.group_id));
    } catch {
      // The database away (a restart): its streams are told everything meanwhile, as before scoping.
      for (const entry of this.byUser.get(userId) ?? []) if (!entry.admin) this.everything.add(entry);
      return;
    } finally {
      if (this.regrouping.get(userId) === ticket) this.regrouping.delete(userId);
    }
    if (this.regrouping.has(userId)) return; // a newer read follows
    for (const entry of this.byUser.get(userId) ?? []) {
      if (entry.admin) continue;
      for (const group of entry.groups) removeFrom(this.byGroup, group, entry);
      entry.groups = groups;
      for (const group of groups) addTo(this.byGroup, group, entry);
      this.everything.delete(entry);
      if (this.head > headBefore) this.wake(entry);
    }
  }

  private wake(entry: Entry): void {
    if (!this.wakeAll) this.waking.add(entry);
    this.schedule();
  }

  private heard(change: HeardChange): void {
    if (change.seq <= this.head) return;
    this.head = change.seq;
    if (change.everyone) {
      this.wakeAll = true;
      this.waking.clear();
    } else if (!this.wakeAll) {
      for (const entry of this.everything) this.waking.add(entry);
      if (change.admins) for (const entry of this.admins) this.waking.add(entry);
      for (const group of change.groups) for (const entry of this.byGroup.get(group) ?? []) this.waking.add(entry);
      for (const user of [...change.users, ...change.regrouped]) for (const entry of this.byUser.get(user) ?? []) this.waking.add(entry);
    }
    for (const user of change.regrouped) if (this.byUser.has(user)) void this.regroup(user, true);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      const told = this.wakeAll ? [...this.entries] : [...this.waking];
      this.wakeAll = false;
      this.waking.clear();
      for (const entry of told) entry.listener(this.head);
    }, 20);
  }
}
