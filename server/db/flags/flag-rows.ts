// Flags as rows and as the wire shape (WireFlag of docs/sync-protocol.md): the one mapping between
// the flags table's columns (joined with the flagger's account) and what a pull or an answer sends.
import type { WireFlag } from '../../../src/shared/protocol';

type Row = Record<string, unknown>;

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** A flags row joined with its flagger (`flagger`, `flagger_email`) as the wire sends it. */
export function toWireFlag(row: Row): WireFlag {
  return {
    id: String(row.id),
    postId: Number(row.post_id),
    replyId: textOrNull(row.reply_id),
    reason: row.reason as WireFlag['reason'],
    text: String(row.text),
    flagger: String(row.flagger),
    flaggerEmail: String(row.flagger_email),
    createdAt: Number(row.created_at),
    state: row.state as WireFlag['state'],
    seq: Number(row.seq),
  };
}

/** The flags columns with the flagger's name and email, for a SELECT from `flags` named `alias` joined with `users` named `who`. */
export const flagColumns = (alias: string, who: string) =>
  `${alias}.id, ${alias}.post_id, ${alias}.reply_id, ${alias}.reason, ${alias}.text, ${who}.name AS flagger, ${who}.email AS flagger_email,
   ${alias}.created_at, ${alias}.state, ${alias}.seq`;
