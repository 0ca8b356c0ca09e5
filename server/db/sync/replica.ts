// Which database answers a read that a device makes from a cursor (a pull, a search): the replica
// (REPLICA_URL) when it has replayed at least to that cursor, else the primary. A replica replays
// commits in order, and change numbers are given out in commit order (the change_head row), so
// every change up to its head is there: the answer never holds less than the device already has.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Reader } from '../storage/adapter';
import { changeHead } from './changes';

/** The replica when it has replayed to `after`, else undefined (also when it does not answer). */
async function replicaFor(replica: Reader | undefined, after: number | undefined): Promise<Reader | undefined> {
  if (!replica || after === undefined) return undefined;
  try {
    return (await changeHead(replica)) >= after ? replica : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `read` on the replica when it has replayed to `after` and on the primary otherwise, or when
 * the replica fails midway. The `x-insight-read-from` header says which answered (only with a
 * replica). `after` undefined (a device that sends no cursor): the primary.
 */
export async function readFromCursor<T>(
  db: Database,
  after: number | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  read: (source: Reader) => Promise<T>,
): Promise<T> {
  const replica = await replicaFor(db.replica, after);
  if (replica) {
    try {
      const answer = await read(replica);
      reply.header('x-insight-read-from', 'replica');
      return answer;
    } catch (error) {
      request.log.warn(`${request.routeOptions.url ?? request.url}: the replica failed, the primary answers: ${(error as Error).message}`);
    }
  }
  if (db.replica) reply.header('x-insight-read-from', 'primary');
  return read(db);
}
