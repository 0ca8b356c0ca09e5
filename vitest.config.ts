import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['tests/unit/setup.ts'],
    // The sync tests run the real server in-process: an empty PGlite data folder, dumped once.
    globalSetup: ['tests/unit/sync/global-setup.ts'],
    // Two files at a time: Vitest's default is one fewer than the cores, one on this 2-core machine
    // (155 s for the suite in CI; 104 s with two).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
