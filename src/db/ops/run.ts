// Running an operation on this device: its definition (src/shared/ops) over IndexedDB, in one Dexie
// transaction with its queued copy for the server (connected mode). The same definition runs on
// the server and replays here over the server's word (replay.ts), so the device never writes an
// operation's rule or effect a second time. A refusal (its rule's code and sentence) undoes it all
// and is thrown as a DataError for the screen to show.
import { db } from '../storage/schema';
import { DataError, withDataErrors } from '../storage/errors';
import { emitLocalChange } from '../storage/changes';
import { countChange } from '../storage/revisions';
import { requireSession } from '../members/guards';
import { OpRefusal, type OpContext } from '../../shared/ops/define';
import { definitionOf, type AnyDefinition, type OpType } from '../../shared/ops/registry';
import { runOp } from '../../shared/ops/rules';
import type { Op } from '../../shared/protocol';
import type { Session } from '../types';
import { followPreferences } from '../preferences/on-device';
import { DexieStore } from './dexie-store';
import { isUnsentCreate, newOp, NO_POST_ID, queueOperation, type Payload, type QueueOptions } from './outbox';
import { OP_TABLES } from './op-tables';

export { OP_TABLES };

export interface RunOptions extends QueueOptions {
  /** The operation's id, when the caller needs it first (else a new UUID). */
  id?: string;
  /** False: the caller queues it itself (a deletion, held for its Undo window under conditions of its own). */
  queue?: boolean;
}

/** An operation run here: its id and what it was about, the store (what it changed), and its place in the outbox. */
export interface Ran {
  op: Op;
  postId: number | null;
  replyId: string | null;
  store: DexieStore;
  opSeq?: number;
}

/** A refusal of a rule as the device's error (its code, title and sentence; the post it is about). */
function toDataError(refusal: OpRefusal, postId: number | null): DataError {
  return new DataError(refusal.code, {
    ...(refusal.reason ? { message: refusal.reason } : {}),
    ...(refusal.title ? { title: refusal.title } : {}),
    ...(postId !== null ? { postId } : {}),
  });
}

/** The definition's reading of `op`, or its refusal as the device's error. */
function parse(definition: AnyDefinition, op: Op): unknown {
  try {
    return definition.parse(op as never);
  } catch (error) {
    throw error instanceof OpRefusal ? toDataError(error, null) : error;
  }
}

/** The fields of `value` that are set (an absent optional field is left out of what is queued). */
function withoutUndefined(value: object): object {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));
}

/**
 * True when an operation about `postId` goes to the server: the server has the post, or its create
 * is queued. A post from before this device met a server lives here only, with what is done to it.
 */
export async function reachesServer(postId: number): Promise<boolean> {
  return Boolean((await db.posts.get(postId))?.sync) || isUnsentCreate(postId);
}

/**
 * Runs an operation of `type` for `session` inside the caller's readwrite transaction (OP_TABLES)
 * and queues it (connected mode, when it changed something here or is sent regardless, and when its
 * post goes to the server). Throws the refusal of its rule as a DataError.
 */
export async function applyOperation<T extends OpType>(
  session: Session,
  type: T,
  payload: Payload<T>,
  options: RunOptions = {},
): Promise<Ran> {
  const definition = definitionOf(type);
  if (definition.who === 'admin' && session.role !== 'admin') throw new DataError('admins_only');
  const given = newOp(type, payload, options.id);
  // What is queued is what ran: the payload as its definition read it (texts trimmed).
  const args = parse(definition, given);
  const op = { ...withoutUndefined(args as object), id: given.id, type } as Op;
  const about = { postId: null as number | null, replyId: null as string | null };
  const context: OpContext = {
    id: op.id,
    now: Date.now(),
    about(postId, replyId = null) {
      about.postId = postId;
      about.replyId = replyId;
    },
  };
  const store = new DexieStore(session);
  try {
    await runOp(definition, store, session, args as never, context);
  } catch (error) {
    throw error instanceof OpRefusal ? toDataError(error, about.postId) : error;
  }
  const ran: Ran = { op, postId: about.postId, replyId: about.replyId, store };
  if (store.changed) await countChange();
  if (options.queue === false || !(store.changed || definition.sendUnchanged)) return ran;
  const postId = about.postId ?? NO_POST_ID;
  if (postId !== NO_POST_ID && definition.creates !== 'post' && !(await reachesServer(postId))) return ran;
  const opSeq = await queueOperation(op, postId, session, { ...options, previous: store.previous, replyId: about.replyId });
  if (opSeq !== undefined) ran.opSeq = opSeq;
  return ran;
}

/**
 * Runs one operation of `type` for the signed-in member in a transaction of its own, then tells the
 * page's followers (the mirror, the engine, other views) and follows what it changed of the member.
 */
export async function runOperation<T extends OpType>(type: T, payload: Payload<T>, options: RunOptions = {}): Promise<Ran> {
  const session = requireSession();
  // Checked before the transaction too: a bad input never opens one.
  const definition = definitionOf(type);
  if (definition.who === 'admin' && session.role !== 'admin') throw new DataError('admins_only');
  parse(definition, newOp(type, payload));
  // An async scope: Dexie keeps the transaction across the native awaits inside it only for one.
  const ran = await withDataErrors(() => db.transaction('rw', OP_TABLES(), async () => applyOperation(session, type, payload, options)));
  followPreferences(ran.store.effects);
  if (ran.store.changed || ran.opSeq !== undefined) emitLocalChange(`op:${type}`);
  return ran;
}
