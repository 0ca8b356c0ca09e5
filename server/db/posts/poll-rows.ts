// Polls as rows (issue 42): the posts.poll column holds what the author wrote and when it was
// closed; the ballots are poll_votes rows, one per member and poll. Every answer that carries a post
// reads its tally first (withPolls), so a device never stores a poll without its counts.
import type { Poll } from '../../../src/shared/polls';
import type { Sql } from '../storage/adapter';
import { parsedJson } from '../storage/json-column';

type Row = Record<string, unknown>;

/** What a tally adds to a posts row: votes per option, voters, and the viewer's own ballot. */
interface Tally {
  counts: Map<number, number>;
  voters: number;
  mine: number[] | null;
}

/** The posts.poll column to write for `poll`: the definition and when it closed, never counts or ballots. */
export function storedPoll(poll: Poll | null | undefined): string | null {
  if (!poll) return null;
  const { question, options, multiple, closesAt, closedAt } = poll;
  return JSON.stringify({ question, options, multiple, closesAt, closedAt });
}

/**
 * `rows` (posts with their `poll` column) with each poll's tally as `viewerEmail` may read it (the
 * counts, the number of voters, their own ballot); one query for the counts and one for the
 * viewer's ballots, whatever the number of rows. Changes the rows in place.
 */
export async function withPolls<R extends Row>(sql: Sql, rows: R[], viewerEmail: string): Promise<R[]> {
  const ids = rows.filter((row) => row.poll !== null && row.poll !== undefined).map((row) => Number(row.id));
  if (ids.length === 0) return rows;
  const counted = await sql.query<{ post_id: unknown; option: unknown; n: unknown }>(
    `SELECT v.post_id, c.value::int AS option, count(*) AS n FROM poll_votes v CROSS JOIN LATERAL jsonb_array_elements(v.choices) c
     WHERE v.post_id = ANY($1::bigint[]) GROUP BY 1, 2
     UNION ALL SELECT post_id, -1, count(*) FROM poll_votes WHERE post_id = ANY($1::bigint[]) GROUP BY 1`,
    [ids],
  );
  const mine = await sql.query<{ post_id: unknown; choices: unknown }>(
    `SELECT v.post_id, v.choices FROM poll_votes v JOIN users u ON u.id = v.user_id WHERE v.post_id = ANY($1::bigint[]) AND u.email = $2`,
    [ids, viewerEmail],
  );
  const tallies = new Map<number, Tally>(ids.map((id) => [id, { counts: new Map(), voters: 0, mine: null }]));
  for (const row of counted) {
    const tally = tallies.get(Number(row.post_id))!;
    if (Number(row.option) === -1) tally.voters = Number(row.n);
    else tally.counts.set(Number(row.option), Number(row.n));
  }
  for (const row of mine) tallies.get(Number(row.post_id))!.mine = (parsedJson(row.choices) as unknown[]).map(Number);
  for (const row of rows) {
    const tally = tallies.get(Number(row.id));
    if (tally) (row as Row).poll_tally = { ...tally, email: viewerEmail };
  }
  return rows;
}

/** The poll of a posts row as a viewer reads it (its tally from withPolls; none read: no votes), or null. */
export function toWirePoll(row: Row): Poll | null {
  const stored = parsedJson(row.poll) as Record<string, unknown> | null | undefined;
  if (!stored || typeof stored !== 'object') return null;
  const options = Array.isArray(stored.options) ? stored.options.map(String) : [];
  const tally = row.poll_tally as (Tally & { email: string }) | undefined;
  const time = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    question: String(stored.question ?? ''),
    options,
    multiple: stored.multiple === true,
    closesAt: time(stored.closesAt),
    closedAt: time(stored.closedAt),
    counts: options.map((_, index) => tally?.counts.get(index) ?? 0),
    voters: tally?.voters ?? 0,
    ballots: tally?.mine ? { [tally.email]: tally.mine } : {},
  };
}
