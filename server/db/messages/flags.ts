// Flagged messages (issue 61) as the admins read them: the list of open flags (who flagged, why,
// when; not what was said), and one flag's conversation, opened by an admin in the same transaction
// as its staff log entry, so no admin reads a conversation without it being written there. Admins
// browse no other conversation (src/shared/visibility.ts, mayReadConversation).
import type { Database } from '../storage/adapter';
import { writeStaffEntry } from '../staff/staff-log';
import { FLAG_CUT_OFF } from '../../../src/shared/visibility';
import type { UserRow } from '../members/accounts';

export interface MessageFlagItem {
  id: string;
  /** The flagged message (what "Dismiss" names: its open flags go together). */
  messageId: string;
  flagger: string;
  reason: string;
  text: string;
  createdAt: number;
}

const toItem = (row: Record<string, unknown>): MessageFlagItem => ({
  id: String(row.id),
  messageId: String(row.message_id),
  flagger: String(row.flagger),
  reason: String(row.reason),
  text: String(row.text),
  createdAt: Number(row.created_at),
});

/** The open flags of messages, newest first. */
export async function listMessageFlags(db: Database): Promise<MessageFlagItem[]> {
  const rows = await db.query(
    `SELECT f.id, f.message_id, u.name AS flagger, f.reason, f.text, f.created_at FROM message_flags f JOIN users u ON u.id = f.user_id
     WHERE f.state = 'open' ORDER BY f.created_at DESC, f.id LIMIT 200`,
  );
  return rows.map(toItem);
}

/**
 * The conversation of flag `id` for `admin` (undefined: no such flag, or no longer open): the flag,
 * the flagged message's id, the conversation's subject and participants, and its messages up to the
 * flag (what is said after it was not reported; FLAG_CUT_OFF: by change number); written to the staff log as the admin opening it,
 * naming the flagged message's author. A dismissed flag opens nothing, as a message's files are the
 * admins' only while a flag of their conversation is open.
 */
export async function openFlaggedConversation(db: Database, admin: UserRow, id: string) {
  return db.transaction(async (tx) => {
    const [flag] = await tx.query(
      `SELECT f.id, u.name AS flagger, f.reason, f.text, f.created_at, f.upto_seq, f.message_id, f.conversation_id, y.user_id AS author_id, c.subject
       FROM message_flags f JOIN users u ON u.id = f.user_id JOIN messages y ON y.id = f.message_id
       JOIN conversations c ON c.id = f.conversation_id WHERE f.id = $1 AND f.state = 'open'`,
      [id],
    );
    if (!flag) return undefined;
    const participants = await tx.query(
      `SELECT u.member_id, u.name, m.left_at FROM conversation_members m JOIN users u ON u.id = m.user_id
       WHERE m.conversation_id = $1 ORDER BY m.position`,
      [flag.conversation_id],
    );
    const messages = await tx.query(
      `SELECT y.id, a.member_id AS author_id, a.name AS author, y.body, y.created_at FROM messages y JOIN users a ON a.id = y.user_id
       WHERE y.conversation_id = $1 AND ${FLAG_CUT_OFF('y', '$2::bigint', '$3::bigint')} ORDER BY y.created_at, y.seq`,
      [flag.conversation_id, flag.upto_seq, flag.created_at],
    );
    await writeStaffEntry(tx, {
      actorId: admin.id,
      action: 'openFlaggedConversation',
      memberId: Number(flag.author_id),
      title: String(flag.subject),
      reason: String(flag.reason),
      detail: { conversationId: String(flag.conversation_id), flagId: String(flag.id) },
    });
    return {
      flag: toItem(flag),
      conversation: {
        id: String(flag.conversation_id),
        subject: String(flag.subject),
        participants: participants.map((row) => ({ id: String(row.member_id), name: String(row.name), left: row.left_at !== null })),
      },
      messages: messages.map((row) => ({
        id: String(row.id),
        authorId: String(row.author_id),
        author: String(row.author),
        body: String(row.body),
        createdAt: Number(row.created_at),
      })),
    };
  });
}
