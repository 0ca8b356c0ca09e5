import { defineConfig } from 'vitest/config';

// The server's tests (Node): against PGlite and a throwaway PostgreSQL started by the global setup.
// One file at a time: the machine is small and the process tests start real servers.
export default defineConfig({
  test: {
    include: ['tests/server/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/server/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
