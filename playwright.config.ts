import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './tests/e2e/support/chromium';

const PORT = Number(process.env.E2E_PORT ?? 4173);

// End-to-end tests run the production build (npm run build first) in Debian's Chromium.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: '.test-output/e2e-artifacts',
  // Budgets several times what a case needs here (the longest, 30 s, set their own): a CI machine
  // 3.5 times slower than this one still finishes every case well within them.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.test-output/e2e.json' }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    // No trace by default: recording one for every case (kept only when it fails) cost about 12% of
    // the suite's CPU on a 2-core machine (three spec files, 31 cases: 3.2 min with it, 2.8 min
    // without), and a failure still prints its error and the page's accessibility snapshot.
    // E2E_TRACE=1 keeps a failed case's trace (actions with timings, console, network).
    trace: process.env.E2E_TRACE ? { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: false } : 'off',
    // Service workers only where a test is about them (pwa.spec.ts): others start clean each time.
    serviceWorkers: 'block',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  webServer: {
    command: `node node_modules/vite/bin/vite.js preview --port ${PORT} --strictPort`,
    url: `http://localhost:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
