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
    this.stop = await this.db.listen(
      CHANGES_CHANNEL,
      (payload) => {
        const heard = parsePayload(payload);
        if (heard) this.heard(heard);
      },
      () => void this.catchUp(),
    );
  }

  /**
   * After the listening session was lost and came back (PostgreSQL restarted): the changes made
   * meanwhile were never heard, and who could see them is not known here, so every stream is told
   * the head (each device pulls, and its pull gives it only what it may see); the groups of every
   * account with a stream are read again, since a change of them may have gone unheard too.
   */
  private async catchUp(): Promise<void> {
    let head: number;
    try {
      await this.regroupAll();
      head = await changeHead(this.db);
    } catch {
      return; // away again: the next listen calls this once more
    }
    this.heard({ seq: head, everyone: true, admins: false, groups: [], users: [], regrouped: [] });
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
    this.index(userId, groups, headBefore);
  }

  /** Indexes the streams of account `userId` by `groups`; wakes them if a change came after `headBefore`. */
  private index(userId: string, groups: readonly string[], headBefore: number): void {
    for (const entry of this.byUser.get(userId) ?? []) {
      if (entry.admin) continue;
      for (const group of entry.groups) removeFrom(this.byGroup, group, entry);
      entry.groups = [...groups];
      for (const group of groups) addTo(this.byGroup, group, entry);
      this.everything.delete(entry);
      if (this.head > headBefore) this.wake(entry);
    }
  }

  /**
   * Reads the groups of every account with a stream in one statement (after the listening came back:
   * a change of someone's groups may have gone unheard). An account with its own read under way keeps
   * that read's answer.
   */
  private async regroupAll(): Promise<void> {
    const users = [...this.byUser.keys()];
    if (users.length === 0) return;
    const headBefore = this.head;
    const rows = await this.db.query<{ user_id: unknown; group_id: unknown }>(
      'SELECT user_id, group_id FROM group_members WHERE user_id = ANY($1::bigint[]) AND in_group',
      [users],
    );
    const groups = new Map<string, string[]>(users.map((user) => [user, []]));
    for (const row of rows) groups.get(String(row.user_id))?.push(String(row.group_id));
    for (const [user, ofUser] of groups) if (!this.regrouping.has(user)) this.index(user, ofUser, headBefore);
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
