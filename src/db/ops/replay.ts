// What a synced row shows on this device: the server's last word on it, with the operations this
// device made that the server has not acknowledged yet, or has acknowledged in a change this device
// has not pulled yet, replayed on top by their own definitions (src/shared/ops) over an in-memory
// store (Replicache's rebase). That is why a like is never counted twice and never lost, and why
// each operation's effect is written once: the replay is the definition itself.
import Dexie from 'dexie';
import type { OutboxRow, PostRow, ReplyRow, ServerFields, ServerState } from '../storage/schema';
import { OpRefusal, type OpContext } from '../../shared/ops/define';
import { definitionOf } from '../../shared/ops/registry';
import { runOp } from '../../shared/ops/rules';
import type { Actor, Post, PostStatus, Reply } from '../../shared/post-rules';
import type { OpPost } from '../../shared/ops/store';
import type { Poll } from '../../shared/polls';
import { MemoryStore } from './memory-store';
import { fieldsOf } from './server-fields';

export { fieldsOf };

/** True while an operation's effect is not yet part of `server` (so the device adds it itself). */
export function isOutstanding(row: OutboxRow, server: { seq: number } | undefined): boolean {
  if (row.ackCursor === undefined) return true;
  return server === undefined || server.seq < row.ackCursor;
}

/** Who made a queued operation (rows of older builds lack the role: their rules are then checked as an admin's, the widest). */
export const actorOf = (row: OutboxRow): Actor => ({ email: row.email, role: row.role ?? 'admin' });

/**
 * Replays `ops` (oldest first) over `store`, each by its definition, as the member who made it at the
 * time they made it. An operation whose rule now refuses it is skipped: the server refuses it too,
 * or already has its word on it. Inside a transaction it runs under Dexie.waitFor: a replay awaits
 * nothing of IndexedDB, and Dexie follows a transaction across only so many such awaits.
 */
export function replay(store: MemoryStore, ops: readonly OutboxRow[]): Promise<void> {
  const work = replayAll(store, ops);
  return Dexie.currentTransaction ? Dexie.waitFor(work) : work;
}

async function replayAll(store: MemoryStore, ops: readonly OutboxRow[]): Promise<void> {
  for (const row of ops) {
    const definition = definitionOf(row.op.type);
    const context: OpContext = { id: row.op.id, now: row.at ?? Date.now(), about: () => undefined };
    try {
      await runOp(definition, store, actorOf(row), definition.parse(row.op as never) as never, context);
    } catch (error) {
      if (!(error instanceof OpRefusal)) throw error;
    }
  }
}

/** What a synced post shows of its server state plus outstanding operations. */
export type LocalView = {
  likes: number;
  views: number;
  status: PostStatus;
  reason: string | null;
  poll?: Poll | null;
} & Partial<ServerFields>;

/**
 * The likes, views, status and reason a post shows: the server's state with the outstanding
 * operations on top; with the server's text kept (`server.fields`: an edit is outstanding), its text
 * and edits too. `row` is the post as stored (or as the server sent it): what the rules read of it
 * besides the server's state. A deletion is not replayed here (a post deleted here is not shown at all).
 */
export async function localView(server: ServerState, ops: readonly OutboxRow[], row: Post & Partial<PostRow>): Promise<LocalView> {
  const base = serverPost(row, server);
  const outstanding = ops.filter((entry) => definitionOf(entry.op.type).removes !== 'post' && isOutstanding(entry, server));
  let post = base;
  if (outstanding.length > 0) {
    const store = new MemoryStore();
    store.posts.set(row.id, base);
    await replay(store, outstanding);
    post = store.posts.get(row.id) ?? base;
  }
  const view: LocalView = { likes: post.likes, views: post.views, status: post.status, reason: post.reason ?? null };
  if (post.poll !== undefined) view.poll = post.poll;
  if (!server.fields) return view;
  return { ...view, ...fieldsOf(post) };
}

/** A post as the server last said it is (the row itself when it never met the server). */
export function serverPost(row: Post & Partial<PostRow>, server: ServerState | undefined = row.sync): OpPost {
  if (!server) return row;
  return {
    ...row,
    likes: server.likes,
    status: server.status,
    // A row stored before the server's view count was kept: its own count stands.
    views: server.views ?? row.views,
    reason: server.reason ?? null,
    ...(server.poll !== undefined ? { poll: server.poll } : {}),
    ...(server.fields ?? {}),
  };
}

/** A reply as the server last said it is (the row itself when it never met the server). */
export function serverReply(row: ReplyRow): Reply {
  const { listed: _listed, sync, arrivedAt: _arrivedAt, ...reply } = row;
  return sync ? { ...reply, content: sync.content, state: sync.state, editedAt: sync.editedAt } : reply;
}

/** The text, state and edit time a synced reply shows: the server's, with the outstanding operations about it on top. */
export async function localReplyView(
  reply: ReplyRow,
  post: (Post & Partial<PostRow>) | undefined,
  ops: readonly OutboxRow[],
): Promise<Pick<ReplyRow, 'content' | 'state' | 'editedAt'>> {
  const base = serverReply(reply);
  const outstanding = ops.filter((entry) => isOutstanding(entry, reply.sync));
  let shown = base;
  if (outstanding.length > 0 && post) {
    const store = new MemoryStore();
    store.posts.set(post.id, serverPost(post));
    store.replies.set(reply.id, base);
    await replay(store, outstanding);
    shown = store.replies.get(reply.id) ?? base;
  }
  return { content: shown.content, state: shown.state, editedAt: shown.editedAt };
}
