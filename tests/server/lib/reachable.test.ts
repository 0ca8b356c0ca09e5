// A request's steps on PostgreSQL wait through a database away for a moment (issue 64): tried again
// while the connection is refused or lost, within one bound per request; any other error at once.
import { describe, expect, it } from 'vitest';
import { reachableWithin } from '../../../server/lib/reachable';

/** An error as the PostgreSQL client throws it (a refused connection, PgBouncer's failed login, a bug). */
const failure = (code: string) => Object.assign(new Error(`failed: ${code}`), { code });

/** Work that fails with each of `errors` in turn, then answers 'done'; counts its runs. */
function flaky(...errors: Error[]) {
  const work = async () => {
    work.runs += 1;
    const error = errors.shift();
    if (error) throw error;
    return 'done';
  };
  work.runs = 0;
  return work;
}

describe('reachableWithin', () => {
  it('runs work again while its connection is refused or lost, until it succeeds', async () => {
    const work = flaky(failure('ECONNREFUSED'), failure('CONNECTION_CLOSED'), failure('08P01'));
    expect(await reachableWithin({ kind: 'postgres' }, 5_000)(work)).toBe('done');
    expect(work.runs).toBe(4);
  });

  it('throws any other error at once: a statement of its own, a deadlock, a full disk', async () => {
    for (const code of ['23505', '40P01', '53100']) {
      const work = flaky(failure(code));
      await expect(reachableWithin({ kind: 'postgres' }, 5_000)(work)).rejects.toMatchObject({ code });
      expect(work.runs, code).toBe(1);
    }
  });

  it('gives up once the bound has passed, one bound for all the steps of a request', async () => {
    const patiently = reachableWithin({ kind: 'postgres' }, 250);
    const started = Date.now();
    await expect(patiently(() => Promise.reject(failure('ECONNREFUSED')))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    // The request's next step meets the database away too: its bound is spent, so it fails at once.
    const next = flaky(failure('ECONNREFUSED'));
    await expect(patiently(next)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(next.runs).toBe(1);
  });

  it('runs work once on the embedded engine, which has no connection to lose', async () => {
    const work = flaky(failure('57P01'));
    await expect(reachableWithin({ kind: 'pglite' }, 5_000)(work)).rejects.toMatchObject({ code: '57P01' });
    expect(work.runs).toBe(1);
  });
});
