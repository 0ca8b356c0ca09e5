import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './tests/e2e/support/chromium';

// Multi-device tests against the real server (npm run build first: dist/ and dist-server/).
// Each spec starts its own server on a port of its own (SYNC_E2E_PORT_BASE + 0..19, default
// 4410) with a temporary DATA_DIR; separate
// browser contexts are separate devices. The main suite (playwright.config.ts) stays local-only.
export default defineConfig({
  testDir: 'tests/e2e-sync',
  // One migrated, seeded data folder that each spec's server starts from (a copy).
  globalSetup: './tests/e2e-sync/support/global-setup.ts',
  outputDir: '.test-output/e2e-sync-artifacts',
  // Budgets several times what a case needs here (at most about 20 s): a CI machine 3.5 times
  // slower than this one still finishes every case well within them.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  // Three spec files at a time: each starts its own server on its own port (syncPort) and data
  // folder. The cases mostly wait (live streams, a device coming back online): with two at a time the
  // stage used about 0.6 of the 2 cores (npm test on CI: 938 s for 60 cases), so a third fills the gaps.
  workers: Number(process.env.SYNC_E2E_WORKERS ?? 3),
  retries: 0,
  forbidOnly: true,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.test-output/e2e-sync.json' }]],
  use: {
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    // No trace by default: recording one for every case (kept only when it fails) cost about 12% of
    // the suite's CPU on a 2-core machine (three spec files, 31 cases: 3.2 min with it, 2.8 min
    // without), and a failure still prints its error and the page's accessibility snapshot.
    // E2E_TRACE=1 keeps a failed case's trace (actions with timings, console, network).
    trace: process.env.E2E_TRACE ? { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: false } : 'off',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
});
