// The hub's indexes (lib/change-hub.ts) over a stand-in database whose NOTIFYs the test sends: a scoped
// change tells its groups' members, its accounts and (with "a") the admins, and nobody else; a bare
// number tells everyone; "m:" reads that member's groups again, and a change heard meanwhile is told
// once the read is done; a member whose groups cannot be read is told everything; after the listening
// came back, every stream is told the head and every member's groups are read again.
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/storage/adapter';
import { ChangeHub } from '../../../server/lib/change-hub';

/** A database that answers the head 0 and each member's groups from `groups`, and lets the test NOTIFY. */
function fakeDatabase(groups: Map<string, string[]>) {
  let notify: (payload: string) => void = () => {};
  let relisten: () => void = () => {};
  const state = { head: 0 };
  const reads: { userId: string; release: () => void }[] = [];
  let hold = false;
  const query = async <T>(text: string, params?: unknown[]): Promise<T[]> => {
    if (!text.includes('group_members')) return [{ seq: state.head }] as T[];
    if (text.includes('ANY(')) {
      // Every member's groups at once (after the listening came back).
      const users = params?.[0] as string[];
      return users.flatMap((user) => (groups.get(user) ?? []).map((group_id) => ({ user_id: user, group_id }))) as T[];
    }
    const userId = String(params?.[0]);
    if (hold) await new Promise<void>((release) => reads.push({ userId, release }));
    const list = groups.get(userId);
    if (!list) throw new Error('the database is away');
    return list.map((group_id) => ({ group_id })) as T[];
  };
  const db: Database = {
    kind: 'pglite',
    query,
    background: { query },
    transaction: () => Promise.reject(new Error('no transactions here')),
    listen: async (_channel, onPayload, onRelisten) => {
      notify = onPayload;
      relisten = onRelisten ?? (() => {});
      return async () => {};
    },
    close: async () => {},
  };
  return {
    db,
    state,
    notify: (payload: string) => notify(payload),
    /** The listening session lost and back (PostgreSQL restarted): what was sent meanwhile was never heard. */
    relisten: () => relisten(),
    holdReads: (on: boolean) => (hold = on),
    reads,
  };
}

/** A listener that records the cursors it is told; `next()` resolves with the next one. */
function recorder() {
  const heard: number[] = [];
  let waiting: ((cursor: number) => void) | undefined;
  return {
    heard,
    listener: (cursor: number) => {
      heard.push(cursor);
      waiting?.(cursor);
      waiting = undefined;
    },
    next: () => new Promise<number>((resolve) => (waiting = resolve)),
  };
}

/** Resolves once a released read's answer is handled (promise callbacks run before setImmediate's). */
const answered = () => new Promise((resolve) => setImmediate(resolve));

// A listener that is never told waits: 10 s fails it rather than the suite's 180.
describe('the change hub', { timeout: 10_000 }, () => {
  it('tells a scoped change to its groups, accounts and admins only; a bare number to everyone', async () => {
    const fake = fakeDatabase(new Map());
    const hub = new ChangeHub(fake.db);
    await hub.start();
    const inGroup = recorder();
    const otherGroup = recorder();
    const named = recorder();
    const admin = recorder();
    const all = recorder();
    hub.subscribeWithGroups(inGroup.listener, { userId: 1, admin: false }, ['g1']);
    hub.subscribeWithGroups(otherGroup.listener, { userId: 2, admin: false }, ['g2']);
    hub.subscribeWithGroups(named.listener, { userId: 3, admin: false }, []);
    hub.subscribeWithGroups(admin.listener, { userId: 4, admin: true }, []);
    hub.subscribe(all.listener); // no member: every change
    const told = all.next();
    fake.notify('5 a g:g1 u:3');
    expect(await told).toBe(5);
    expect([inGroup.heard, otherGroup.heard, named.heard, admin.heard]).toEqual([[5], [], [5], [5]]);
    const second = all.next();
    fake.notify('6 u:2');
    expect(await second).toBe(6);
    expect([inGroup.heard, otherGroup.heard, named.heard, admin.heard]).toEqual([[5], [6], [5], [5]]);
    const third = all.next();
    fake.notify('7');
    expect(await third).toBe(7);
    expect([inGroup.heard, otherGroup.heard, named.heard, admin.heard]).toEqual([
      [5, 7],
      [6, 7],
      [5, 7],
      [5, 7],
    ]);
    await hub.close();
  });

  it('reads a member’s groups at open and again when a change names them in m:, telling what came meanwhile', async () => {
    const groups = new Map([['9', ['g1']]]);
    const fake = fakeDatabase(groups);
    const hub = new ChangeHub(fake.db);
    await hub.start();
    const member = recorder();
    const all = recorder();
    hub.subscribe(all.listener);
    fake.holdReads(true);
    hub.subscribe(member.listener, { userId: 9, admin: false });
    // A change in g1 while the first read is under way: told once the read is done.
    const first = all.next();
    fake.notify('3 a g:g1');
    expect(await first).toBe(3);
    expect(member.heard).toEqual([]);
    const late = member.next();
    fake.reads.shift()!.release();
    expect(await late).toBe(3);
    // Added to g2: the change names them (told), and their streams read the groups again.
    groups.set('9', ['g1', 'g2']);
    const regrouped = member.next();
    fake.notify('4 a m:9');
    expect(await regrouped).toBe(4);
    fake.reads.shift()!.release();
    await answered();
    fake.holdReads(false);
    const inG2 = member.next();
    fake.notify('5 g:g2');
    expect(await inG2).toBe(5);
    expect(member.heard).toEqual([3, 4, 5]);
    await hub.close();
  });

  it('after its listening came back, tells every stream the head it missed and reads everyone’s groups again (issue 64)', async () => {
    const groups = new Map([
      ['1', ['g1']],
      ['2', ['g2']],
    ]);
    const fake = fakeDatabase(groups);
    const hub = new ChangeHub(fake.db);
    await hub.start();
    const inG1 = recorder();
    const inG2 = recorder();
    const admin = recorder();
    hub.subscribeWithGroups(inG1.listener, { userId: 1, admin: false }, ['g1']);
    hub.subscribeWithGroups(inG2.listener, { userId: 2, admin: false }, ['g2']);
    hub.subscribeWithGroups(admin.listener, { userId: 3, admin: true }, []);
    // While the session was away: seven changes, and member 2 was added to g1; nothing was heard.
    fake.state.head = 7;
    groups.set('2', ['g1', 'g2']);
    const told = [inG1.next(), inG2.next(), admin.next()];
    fake.relisten();
    expect(await Promise.all(told)).toEqual([7, 7, 7]);
    // Member 2's streams are indexed by g1 now: a change in g1 reaches them.
    const again = inG2.next();
    fake.notify('8 g:g1');
    expect(await again).toBe(8);
    expect([inG1.heard, inG2.heard, admin.heard]).toEqual([[7, 8], [7, 8], [7]]);
    await hub.close();
  });

  it('tells everything to a member whose groups cannot be read', async () => {
    const fake = fakeDatabase(new Map());
    const hub = new ChangeHub(fake.db);
    await hub.start();
    const member = recorder();
    fake.holdReads(true);
    hub.subscribe(member.listener, { userId: 5, admin: false });
    fake.reads.shift()!.release(); // no groups known for 5: the read fails
    await answered();
    fake.holdReads(false);
    const told = member.next();
    fake.notify('8 g:elsewhere');
    expect(await told).toBe(8);
    await hub.close();
  });
});
