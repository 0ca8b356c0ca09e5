// The app's outbox rule, for tests that cut the server off in the middle of pushes: an unanswered
// push is sent again later with the same op id, until the server answers it applied or duplicate.
import type { Op } from '../../../src/shared/protocol';
import type { HttpClient } from './http';

export interface PushOutcome {
  applied: number;
  duplicate: number;
  unanswered: number;
  /** Of the unanswered, how many were answered 5xx (by the server or the balancer in front of it). */
  serverErrors: number;
}

export const noPushes = (): PushOutcome => ({ applied: 0, duplicate: 0, unanswered: 0, serverErrors: 0 });

/**
 * Pushes `op` through `client` until it is answered, counting each answer in `outcome`;
 * `beforeRetry` is the outbox's back-off (a test waits there for the server to be back). Throws,
 * with the last answer, after `attempts` unanswered pushes.
 */
export async function pushUntilAnswered(
  client: HttpClient,
  op: Op,
  outcome: PushOutcome,
  beforeRetry: () => Promise<void>,
  attempts = 5,
): Promise<'applied' | 'duplicate'> {
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const answer = await client.send('POST', '/api/ops', { ops: [op] }).catch((error: Error) => void (last = error.message));
    if (answer) last = `${answer.status} ${JSON.stringify(answer.body)}`;
    const status = answer?.status === 200 ? (answer.body.results[0].status as string) : undefined;
    if (status === 'applied' || status === 'duplicate') {
      outcome[status] += 1;
      return status;
    }
    outcome.unanswered += 1;
    if (answer && answer.status >= 500) outcome.serverErrors += 1;
    await beforeRetry();
  }
  throw new Error(`operation ${op.id} was never answered: ${last}`);
}
