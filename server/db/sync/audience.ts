// Who a change may concern, carried in its NOTIFY on `ie_changes` so each instance's hub wakes only
// the live streams that may see it (server/lib/change-hub.ts). The pull still decides what a device
// gets: an audience only narrows who is told "changes up to N exist", and is never narrower than the
// pull's rule (src/shared/visibility.ts).
//
// The payload: "<seq>" alone is everyone (what every earlier build sent, and still the default);
// "<seq>" followed by space-separated parts is scoped: "a" the admins, "g:<id>,<id>" the members of
// these groups, "u:<id>,<id>" these accounts (users.id), "m:<id>,<id>" accounts whose groups changed
// (told, and their streams read their groups again). PostgreSQL refuses a payload of 8000 bytes or
// more: a longer audience is sent as everyone.
import type { Sql } from '../storage/adapter';

/** Past this length a payload says "everyone" (NOTIFY's limit is 8000 bytes; ids are ASCII). */
export const MAX_PAYLOAD = 7000;

export interface HeardChange {
  seq: number;
  /** Everyone is told (the payload had no parts). */
  everyone: boolean;
  admins: boolean;
  groups: string[];
  users: string[];
  /** Accounts whose groups changed (also told). */
  regrouped: string[];
}

/** The audience an operation builds as it writes: nothing declared means everyone. */
export class Audience {
  everyone = false;
  admins = false;
  readonly groups = new Set<string>();
  readonly users = new Set<string>();
  readonly regrouped = new Set<string>();
  private declared = false;

  /** Everyone may see it (a public post, a rename, a category's change). */
  all(): void {
    this.declared = true;
    this.everyone = true;
  }

  /** The admins, these groups' members and these accounts (ids as users.id). */
  add(part: {
    admins?: boolean;
    groups?: readonly string[];
    users?: readonly (string | number)[];
    regrouped?: readonly (string | number)[];
  }): void {
    this.declared = true;
    if (part.admins) this.admins = true;
    for (const group of part.groups ?? []) this.groups.add(group);
    for (const user of part.users ?? []) this.users.add(String(user));
    for (const user of part.regrouped ?? []) this.regrouped.add(String(user));
  }

  /** The NOTIFY payload for change `seq`. */
  payload(seq: number): string {
    if (!this.declared || this.everyone) return String(seq);
    return scopedPayload(seq, this);
  }
}

/** A scoped payload, or the bare number when it would be too long. */
export function scopedPayload(
  seq: number,
  audience: { admins: boolean; groups: Iterable<string>; users: Iterable<string>; regrouped: Iterable<string> },
): string {
  const parts = [String(seq)];
  if (audience.admins) parts.push('a');
  const list = (prefix: string, ids: Iterable<string>) => {
    const all = [...ids].filter((id) => /^[\w-]+$/.test(id));
    if (all.length > 0) parts.push(`${prefix}:${all.join(',')}`);
  };
  list('g', audience.groups);
  list('u', audience.users);
  list('m', audience.regrouped);
  // Nobody at all (a change only its writer's devices hold, with no admins): "a" keeps it scoped.
  if (parts.length === 1) parts.push('a');
  const text = parts.join(' ');
  return text.length > MAX_PAYLOAD ? String(seq) : text;
}

/** Reads a payload; undefined when it is not one (no change number). */
export function parsePayload(payload: string): HeardChange | undefined {
  const [first, ...parts] = payload.trim().split(/\s+/);
  if (!first || !/^\d+$/.test(first)) return undefined;
  const seq = Number(first);
  const heard: HeardChange = { seq, everyone: parts.length === 0, admins: false, groups: [], users: [], regrouped: [] };
  for (const part of parts) {
    if (part === 'a') heard.admins = true;
    const ids = () => part.slice(2).split(',').filter(Boolean);
    if (part.startsWith('g:')) heard.groups.push(...ids());
    else if (part.startsWith('u:')) heard.users.push(...ids());
    else if (part.startsWith('m:')) heard.regrouped.push(...ids());
  }
  return heard;
}

/**
 * Who may see post `postId` as it is now (run before a deletion): everyone for a category everyone
 * sees; for a private one its groups, its author and the admins.
 */
export async function postAudience(sql: Sql, postId: number, audience: Audience): Promise<void> {
  const [row] = await sql.query<{ see_groups: string[] | null; author: unknown }>(
    `SELECT c.see_groups, (SELECT u.id FROM users u WHERE u.email = p.author_email) AS author
     FROM posts p LEFT JOIN categories c ON c.id = p.category WHERE p.id = $1`,
    [postId],
  );
  if (!row || !Array.isArray(row.see_groups)) return audience.all();
  audience.add({ admins: true, groups: row.see_groups.map(String), users: row.author === null ? [] : [String(row.author)] });
}

/** The account ids of a conversation's participants (who have not left it). */
export async function conversationAudience(sql: Sql, conversationId: string, audience: Audience): Promise<void> {
  const rows = await sql.query<{ user_id: unknown }>(
    'SELECT user_id FROM conversation_members WHERE conversation_id = $1 AND left_at IS NULL',
    [conversationId],
  );
  audience.add({ users: rows.map((row) => String(row.user_id)) });
}
