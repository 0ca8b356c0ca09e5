// "N new" on every device (issue 62): each read position (`reads`) carries `unread`, the number of
// visible replies by others after it that this device holds (countUnread, src/shared/follows.ts).
// A Dexie middleware keeps it right, so no write can forget: every write of `reads` is stored with
// its count, and every write of `replies` (a pull, an operation, an undo, a refusal, a post removed,
// Free up space) recounts the read positions of the posts it touched, inside its own transaction.
// A count costs one index range per touched post (`reads` by postId, then the replies after the
// earliest position by [postId+listed+createdAt]): a pull page costs in proportion to the posts it
// touches, never to the device's size. A transaction that does not hold `reads` cannot recount:
// every transaction that writes replies holds it (OP_TABLES and the sync's own scopes), and one that
// writes `reads` without `replies` (an address change) keeps the counts it is given.
import type { DBCore, DBCoreMutateRequest, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie';
import { countUnread } from '../../shared/follows';
import type { ReadRow, ReplyRow } from './schema';

/** DBCoreRangeType.Equal and .Range (a const enum, not importable under isolatedModules). */
const EQUAL = 1;
const RANGE = 2;

/** True when the transaction holds `table` (a count needs both `reads` and `replies`). */
const holds = (trans: DBCoreTransaction, table: string): boolean =>
  (trans as unknown as IDBTransaction).objectStoreNames?.contains(table) === true;
const holdsReads = (trans: DBCoreTransaction): boolean => holds(trans, 'reads');

/** The replies of `postId` after `after` (ms), deleted ones left out: what a count reads. */
function repliesAfter(replies: DBCoreTable, trans: DBCoreTransaction, postId: number, after: number): Promise<ReplyRow[]> {
  const index = replies.schema.getIndexByKeyPath(['postId', 'listed', 'createdAt']);
  return replies
    .query({
      trans,
      values: true,
      query: {
        index: index!,
        range: { type: RANGE, lower: [postId, 1, after], lowerOpen: true, upper: [postId, 1, Infinity], upperOpen: false },
      },
    })
    .then(({ result }) => result as ReplyRow[]);
}

/** `rows` (read positions of one post) with their counts as the replies held say. */
function counted(replies: DBCoreTable, trans: DBCoreTransaction, postId: number, rows: readonly ReadRow[]): Promise<ReadRow[]> {
  if (rows.length === 0) return Promise.resolve([]);
  const from = Math.min(...rows.map((row) => row.readTo));
  return repliesAfter(replies, trans, postId, from).then((later) =>
    rows.map((row) => ({ ...row, unread: countUnread(later, row.readTo, row.email) })),
  );
}

/** Recounts the read positions of `postIds` (after a write of their replies). Promise chains, not `await`: they keep the transaction's zone. */
function recount(down: DBCore, trans: DBCoreTransaction, postIds: ReadonlySet<number>): Promise<unknown> {
  if (postIds.size === 0 || !holdsReads(trans)) return Promise.resolve();
  const reads = down.table('reads');
  const replies = down.table('replies');
  const byPost = reads.schema.getIndexByKeyPath('postId');
  return Promise.all(
    [...postIds].map((postId) =>
      reads
        .query({ trans, values: true, query: { index: byPost!, range: { type: EQUAL, lower: postId, upper: postId } } })
        .then(({ result }) => {
          const rows = result as ReadRow[];
          return counted(replies, trans, postId, rows).then((next) => {
            const changed = next.filter((row, i) => row.unread !== rows[i]!.unread);
            if (changed.length > 0) return reads.mutate({ type: 'put', trans, values: changed });
            return undefined;
          });
        }),
    ),
  );
}

/** The posts of the replies a deletion takes away, read before they go. */
function deletedPosts(table: DBCoreTable, request: DBCoreMutateRequest & { type: 'delete' | 'deleteRange' }): Promise<Set<number>> {
  const rows =
    request.type === 'delete'
      ? table.getMany({ trans: request.trans, keys: request.keys })
      : table
          .query({ trans: request.trans, values: true, query: { index: table.schema.primaryKey, range: request.range } })
          .then(({ result }) => result);
  return rows.then((list) => new Set((list as (ReplyRow | undefined)[]).flatMap((row) => (row ? [row.postId] : []))));
}

/**
 * `replies`: every write recounts the read positions of the posts it touched. A put counts the post
 * its rows now name (a reply that moves to another post moves from a temporary one, whose read
 * positions move with it: posts/pulled.ts, rekeyPost).
 */
function recountingReplies(down: DBCore, table: DBCoreTable): DBCoreTable {
  return {
    ...table,
    mutate(request) {
      if (!holdsReads(request.trans)) return table.mutate(request);
      if (request.type === 'add' || request.type === 'put') {
        const posts = new Set((request.values as ReplyRow[]).map((row) => row.postId));
        return table.mutate(request).then((response) => recount(down, request.trans, posts).then(() => response));
      }
      return deletedPosts(table, request).then((posts) =>
        table.mutate(request).then((response) => recount(down, request.trans, posts).then(() => response)),
      );
    },
  };
}

/** `reads`: every row is stored with its count. */
function countingReads(down: DBCore, table: DBCoreTable): DBCoreTable {
  return {
    ...table,
    mutate(request) {
      if ((request.type !== 'add' && request.type !== 'put') || !holds(request.trans, 'replies')) return table.mutate(request);
      const replies = down.table('replies');
      const rows = request.values as ReadRow[];
      return Promise.all(rows.map((row) => counted(replies, request.trans, row.postId, [row]).then(([next]) => next!))).then((values) =>
        table.mutate({ ...request, values }),
      );
    },
  };
}

/** Keeps `unread` on every read position right (see the top). */
export const unreadUpkeep: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'unread-upkeep',
  create: (down) => ({
    ...down,
    table: (name) => {
      if (name === 'replies') return recountingReplies(down, down.table(name));
      if (name === 'reads') return countingReads(down, down.table(name));
      return down.table(name);
    },
  }),
};
