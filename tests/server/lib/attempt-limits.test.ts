// Sign-in attempt limits (server/lib/attempt-limiter.ts). Shared through the database (the server
// uses it on PostgreSQL; its SQL is run on both engines here): two limiters on one database (two
// instances) count one window, exactly, even at once; the window ends on time; a key is forgotten
// once its owner got in; expired windows are swept. In memory on the embedded engine (one instance).
import { afterEach, describe, expect, it } from 'vitest';
import { attemptLimiter, MemoryAttemptLimiter, SharedAttemptLimiter } from '../../../server/lib/attempt-limiter';
import type { Database } from '../../../server/db/storage/adapter';
import { BACKENDS, freshDatabase } from '../support/databases';

describe.each(BACKENDS)('attempt limits shared through the database (%s)', (backend) => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it('two instances count one window: 40 attempts at once from both, the 11th and later wait', async () => {
    db = await freshDatabase(backend);
    let now = 1_000_000;
    const rule = { max: 10, windowMs: 60_000 };
    const first = new SharedAttemptLimiter(db, 'email-address', rule, () => now);
    const second = new SharedAttemptLimiter(db, 'email-address', rule, () => now);
    const waits = await Promise.all(
      Array.from({ length: 40 }, (_, index) => (index % 2 ? first : second).hit('ada@example.com 127.0.0.1')),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(10);
    expect(waits.filter((wait) => wait === 60_000)).toHaveLength(30);
    // Another key, and another limiter with the same key, are counted apart.
    expect(await first.hit('bob@example.com 127.0.0.1')).toBe(0);
    expect(await new SharedAttemptLimiter(db, 'address', rule, () => now).hit('ada@example.com 127.0.0.1')).toBe(0);
    // The wait shrinks with time, and the window ends on time.
    now += 45_000;
    expect(await second.hit('ada@example.com 127.0.0.1')).toBe(15_000);
    now += 15_000;
    expect(await second.hit('ada@example.com 127.0.0.1')).toBe(0);
    // The owner got in: their key is forgotten on every instance.
    for (let attempt = 0; attempt < 10; attempt += 1) await first.hit('ada@example.com 127.0.0.1');
    expect(await second.hit('ada@example.com 127.0.0.1')).toBeGreaterThan(0);
    await first.clear('ada@example.com 127.0.0.1');
    expect(await second.hit('ada@example.com 127.0.0.1')).toBe(0);
  });

  it("sweeps expired windows as it counts: every 500th attempt on an instance, and a window's time after the last sweep", async () => {
    db = await freshDatabase(backend);
    let now = 10_000_000;
    const limiter = new SharedAttemptLimiter(db, 'address', { max: 100, windowMs: 60_000 }, () => now);
    const rows = async () =>
      Number(((await db!.query<{ n: number | string }>('SELECT count(*) AS n FROM attempt_windows')) as [{ n: number | string }])[0].n);
    for (let index = 0; index < 499; index += 1) await limiter.hit(`10.0.0.${index}`);
    now += 30_000; // the 500th attempt sweeps, but nothing has expired yet
    await limiter.hit('10.9.9.1');
    expect(await rows()).toBe(500);
    now += 31_000; // the first 499 have expired; 31 s since the last sweep: not yet swept
    await limiter.hit('10.9.9.2');
    expect(await rows()).toBe(501);
    now += 30_000; // a window since the last sweep: the expired go (the 499 and the 500th)
    await limiter.hit('10.9.9.3');
    expect(await rows()).toBe(2);
    now += 120_000;
    await limiter.hit('10.9.9.4');
    expect(await rows()).toBe(1);
  });
});

describe('which limiter an engine gets', () => {
  it('PostgreSQL: shared through the database; the embedded engine (one instance only): in memory, counting alike', async () => {
    const rule = { max: 2, windowMs: 1_000 };
    expect(attemptLimiter({ kind: 'postgres', query: async () => [] }, 'address', rule)).toBeInstanceOf(SharedAttemptLimiter);
    expect(attemptLimiter({ kind: 'pglite', query: async () => [] }, 'address', rule)).toBeInstanceOf(MemoryAttemptLimiter);
    let now = 0;
    const memory = new MemoryAttemptLimiter(rule, () => now);
    expect([await memory.hit('k'), await memory.hit('k'), await memory.hit('k')]).toEqual([0, 0, 1_000]);
    await memory.clear('k');
    expect(await memory.hit('k')).toBe(0);
    now = 5_000;
    expect([await memory.hit('k'), await memory.hit('k'), await memory.hit('k')]).toEqual([0, 0, 1_000]);
  });
});
