// The tables an operation's transaction holds, apart from the runner (run.ts): a module that opens
// such a transaction for operations it runs later (through run-later.ts) does not load the runner for it.
import { db } from '../storage/schema';

/** The tables an operation may write, with its outbox and bookkeeping: every operation's transaction. */
export const OP_TABLES = () => [
  db.posts,
  db.replies,
  db.viewed,
  db.meta,
  db.outbox,
  db.flags,
  db.notifications,
  db.saved,
  db.preferences,
  db.accounts,
  db.likeDays,
  db.files,
  db.groups,
  db.groupMembers,
  db.categories,
  db.conversations,
  db.messages,
  db.follows,
  db.reads,
];

/**
 * The tables storing the server's posts and replies outside a pull may write (storeServerPosts,
 * storeServerReplies): a row of this device's own standing on a server post's id moves to a new id
 * with its operations, replies, saved rows, levels and read positions (rekeyPost).
 */
export const SERVER_POST_TABLES = () => [db.posts, db.replies, db.viewed, db.meta, db.outbox, db.saved, db.reads, db.follows];
