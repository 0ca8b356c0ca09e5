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
