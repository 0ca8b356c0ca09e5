import { defineConfig } from 'vitest/config';

// Password hashes at N = 2^10 (server/lib/passwords.ts; see `env` below). The global setup runs in
// this process, not in a worker, and seeds the admin into every test database: without this its hash
// was at the standard 2^17, and each sign-in as the admin (or wrong guess at its password) cost a
// 2^17 derivation (about 0.9 s of a core, 128 MiB) instead of about 7 ms.
const PASSWORD_SCRYPT_N = '1024';
process.env.PASSWORD_SCRYPT_N = PASSWORD_SCRYPT_N;

// The server's tests (Node): against PGlite and a throwaway PostgreSQL started by the global setup.
// Two files at a time (one per core): much of a file's time is spent waiting on PGlite's worker
// thread, the PostgreSQL server or a server process; 500 s one at a time → 419 s here. Every file
// uses its own databases, ports (0) and folders, so two never meet.
export default defineConfig({
  test: {
    include: ['tests/server/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/server/support/global-setup.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    // A case that starts server processes takes 20–50 s here alone; a CI machine twice as slow, or one
    // shared with other work, went past 60 s (server.test.ts, db/storage/pglite-worker.test.ts). A bound, not a wait.
    testTimeout: 180_000,
    // Password hashes at N = 2^10 (server/lib/passwords.ts): a hash at the standard 2^17 takes about
    // 0.9 s of a core here, and these files sign in thousands of times (three files: 152 s → 52 s).
    // Child processes (servers, the cluster) inherit it. plugins/security-upkeep.test.ts checks the standard cost.
    env: { PASSWORD_SCRYPT_N },
    hookTimeout: 120_000,
    // expect.poll waits up to 10 s, not Vitest's 1 s: a busy 2-core CI machine is slower than that.
    expect: { poll: { timeout: 10_000 } },
  },
});
