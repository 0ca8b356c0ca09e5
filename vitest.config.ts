import { defineConfig } from 'vitest/config';
import { DEXIE_MODERN_ALIAS } from './scripts/dexie-modern.mjs';
import { REACT_ROUTER_PRODUCTION_ALIASES } from './scripts/react-router-production.mjs';

export default defineConfig({
  // The Dexie build the app ships (scripts/dexie-modern.mjs); dexie-react-hooks is inlined so its
  // `import 'dexie'` takes the same copy (one liveQuery sees every transaction). React Router's
  // production build, as the app ships it (scripts/react-router-production.mjs).
  resolve: { alias: [DEXIE_MODERN_ALIAS, ...REACT_ROUTER_PRODUCTION_ALIASES] },
  test: {
    server: { deps: { inline: ['dexie-react-hooks'] } },
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    // thread-scope.ts first: the files share a process (pool below).
    setupFiles: ['tests/unit/thread-scope.ts', 'tests/unit/setup.ts'],
    // The sync tests run the real server in-process: an empty PGlite data folder, dumped once.
    globalSetup: ['tests/unit/sync/global-setup.ts'],
    // Two files at a time: Vitest's default is one fewer than the cores, one on this 2-core machine
    // (155 s for the suite in CI; 104 s with two).
    maxWorkers: 2,
    // In worker threads rather than child processes: 142 s for the suite here instead of 241 s (a
    // thread starts and loads its modules faster than a process, and the cores are what CI waits on).
    pool: 'threads',
    // Password hashes at N = 2^10 (server/lib/passwords.ts), as the server tests and the multi-device
    // servers have them: tests/unit/sync/ signs in to the in-process server, and a hash or check at the
    // standard 2^17 costs about 0.9 s of a core and 128 MiB. plugins/security-upkeep.test.ts (server
    // tests) checks the standard cost.
    env: { PASSWORD_SCRYPT_N: '1024' },
    // expect.poll waits up to 10 s (Vitest's default is 1 s): a busy 2-core CI machine missed the
    // second of two tabs' sync cycles within 1 s (engine.test.ts, at load 12). A right answer comes at
    // once; only a wrong one waits the bound out.
    expect: { poll: { timeout: 10_000 } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
