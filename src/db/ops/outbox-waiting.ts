// How many of a member's operations wait to be sent, apart from the outbox's other work: Sign In and
// Log out (sync/auth.ts) ask it, and importing it from outbox.ts brought the operations' registry
// and runner (13 KB gzip) onto the way from /login to /forum (issue 64, item 2).
import { db, type OutboxRow } from '../storage/schema';

/** Still to be sent: not yet applied by the server, and not set aside. */
export const isWaiting = (row: OutboxRow) => row.ackCursor === undefined && !row.setAside;

/**
 * How many operations are waiting to be sent (for one member, or for everyone). A held deletion
 * counts: the server does not know of it yet.
 */
export function countWaiting(email?: string): Promise<number> {
  const rows = email ? db.outbox.where('email').equals(email) : db.outbox.toCollection();
  return rows.filter(isWaiting).count();
}
