import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['tests/unit/setup.ts'],
    // The sync tests run the real server in-process: an empty PGlite data folder, dumped once.
    globalSetup: ['tests/unit/sync/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
