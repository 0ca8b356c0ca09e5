import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { MEMBER } from './support/app';
import { waitForServiceWorker } from './support/service-worker';
import { startStaticServer, type StaticServer } from './support/static-server';

// A second build served over the first: the new version waits, the app offers Reload, and
// every open tab then runs the new version, having reloaded exactly once.
const PORT = 4181;
let work: string;
let server: StaticServer;
const builds = { a: '', b: '' };

test.use({ serviceWorkers: 'allow', baseURL: `http://localhost:${PORT}` });
// One server and two builds for the whole file.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  work = mkdtempSync(join(tmpdir(), 'insight-update-'));
  builds.a = join(work, 'a');
  builds.b = join(work, 'b');
  cpSync('dist', builds.a, { recursive: true });
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', builds.b, '--emptyOutDir', '--logLevel', 'error'], {
    env: { ...process.env, BUILD_ID: 'e2e-second-build' },
    stdio: 'inherit',
  });
  server = await startStaticServer(builds.a, PORT);
});

test.afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

// While a tab reloads, its old page can vanish mid-question: that reads as "not yet".
const build = (page: Page) => page.evaluate(() => document.documentElement.dataset.build).catch(() => undefined);
const loads = (page: Page) => page.evaluate(() => Number(sessionStorage.getItem('test-loads')));
const snapshotToken = async (context: BrowserContext) =>
  (await context.cookies()).find((cookie) => cookie.name === 'insight-snapshot')?.value;

test('a new version waits for Reload, then every tab runs it, and the draft survives', async ({ page, context }) => {
  await context.addInitScript(() => {
    sessionStorage.setItem('test-loads', String(Number(sessionStorage.getItem('test-loads')) + 1));
  });
  await page.goto('/login');
  await page.getByLabel('Email').fill(MEMBER);
  await page.getByLabel('Password').fill('pw');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL('/');
  await waitForServiceWorker(page);
  await page.goto('/forum');
  await expect(page.getByRole('article').first()).toBeVisible();
  const firstBuild = await build(page);
  expect(firstBuild).not.toBe('e2e-second-build');

  const other = await context.newPage();
  await other.goto('/profile');
  await expect(other.getByRole('heading', { name: 'My Posts' })).toBeVisible();

  // The forum's snapshot of the first build, and the cookie that lets it paint.
  await expect.poll(() => snapshotToken(context), { timeout: 30_000 }).toMatch(/^[0-9a-f]{32}$/);
  const oldToken = await snapshotToken(context);

  await page.getByRole('button', { name: 'New Post' }).click();
  await page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title').fill('Half-written when the update came');
  const before = { page: await loads(page), other: await loads(other) };

  server.setRoot(builds.b);
  // The app checks for an update whenever its window gets focus.
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
  await expect(prompt).toBeVisible({ timeout: 30_000 });
  await expect(other.getByRole('status').filter({ hasText: 'A new version is available' })).toBeVisible({ timeout: 30_000 });
  expect(await build(page)).toBe(firstBuild);

  await page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title').press('Escape');
  await prompt.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => build(page), { timeout: 30_000 }).toBe('e2e-second-build');
  await expect.poll(() => build(other), { timeout: 30_000 }).toBe('e2e-second-build');
  expect(await loads(page)).toBe(before.page + 1);
  expect(await loads(other)).toBe(before.other + 1);
  // The new build's worker dropped the old build's snapshot and its cookie: never painted again.
  expect(await snapshotToken(context)).not.toBe(oldToken);
  await expect(page.getByText('A new version is available')).toHaveCount(0);

  await page.getByRole('button', { name: 'New Post' }).click();
  await expect(page.getByRole('dialog', { name: 'New Post' }).getByLabel('Title')).toHaveValue('Half-written when the update came');
});

test('the app also checks for a new version every hour', async ({ page }) => {
  server.setRoot(builds.b);
  await page.clock.install();
  await page.goto('/');
  await waitForServiceWorker(page);
  await expect(page.getByRole('heading', { name: 'Insightful Discussions' })).toBeVisible();
  server.setRoot(builds.a);
  await page.clock.runFor(59 * 60 * 1000);
  await expect(page.getByText('A new version is available')).toHaveCount(0);
  await page.clock.runFor(60 * 1000);
  await expect(page.getByRole('status').filter({ hasText: 'A new version is available' })).toBeVisible({ timeout: 30_000 });
});
