// Change numbers of replies (schema version 9): every write of replies, whoever makes it (a pull, an
// operation, an undo, an import, a rename), takes the next number in the `rev` index, inside its own
// transaction, so they grow in commit order across tabs. The next number is past the clock (in
// thousandths of a millisecond) as well as past the highest one held: a number freed by a deletion
// (the highest reply deleted, then another written) is never given again. The search worker reads the replies whose
// number is above the last it saw (db/search/engine.ts). A Dexie middleware, so no write can forget.
import type { DBCore, DBCoreMutateRequest, DBCoreTable, Middleware } from 'dexie';

/** Any key at all (DBCoreRangeType.Any: a const enum, not importable under isolatedModules). */
const ANY_KEY = { type: 3, lower: undefined, upper: undefined } as const;

/**
 * The highest `rev` in `table` within the request's transaction (0 when none). Promise chains, not
 * `await`: Dexie's promises keep the transaction's zone through `then`, which the middleware below needs.
 */
function lastRev(table: DBCoreTable, request: DBCoreMutateRequest): Promise<number> {
  const index = table.schema.getIndexByKeyPath('rev');
  if (!index) return Promise.resolve(0);
  return table
    .openCursor({ trans: request.trans, values: false, reverse: true, query: { index, range: ANY_KEY } })
    .then((cursor) => (typeof cursor?.key === 'number' ? cursor.key : 0));
}

function numbered(table: DBCoreTable): DBCoreTable {
  return {
    ...table,
    mutate(request) {
      if (request.type !== 'add' && request.type !== 'put') return table.mutate(request);
      return lastRev(table, request).then((last) => table.mutate(withRev(request, Math.max(last + 1, Date.now() * 1000))));
    },
  };
}

/** `request` with every value (and change spec) given `rev`. */
function withRev(request: DBCoreMutateRequest & { type: 'add' | 'put' }, rev: number): DBCoreMutateRequest {
  const values = request.values.map((value: Record<string, unknown>) => ({ ...value, rev }));
  if (request.type === 'add') return { ...request, values };
  const changeSpec = request.changeSpec ? { changeSpec: { ...request.changeSpec, rev } } : {};
  const updates = request.updates
    ? { updates: { keys: request.updates.keys, changeSpecs: request.updates.changeSpecs.map((spec) => ({ ...spec, rev })) } }
    : {};
  return { ...request, values, ...changeSpec, ...updates };
}

/** Numbers every write of the `replies` table. */
export const replyRevisions: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'reply-revisions',
  create: (down) => ({
    ...down,
    table: (name) => (name === 'replies' ? numbered(down.table(name)) : down.table(name)),
  }),
};
