import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN, makePost, putPosts } from './support/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';

test.describe.configure({ mode: 'serial' });

const BASE = `http://localhost:${process.env.E2E_PORT ?? 4173}`;

async function launch(profile: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, serviceWorkers: 'block' });
}

/** Kills every process of the browser that uses this profile, at once, like a crash or power cut of the app. */
function killBrowser(profile: string): void {
  const pids = execSync(`pgrep -f -- '--user-data-dir=${profile}' || true`).toString().split('\n').filter(Boolean);
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Everything IndexedDB holds about posts, and the localStorage copy, read in the page. */
async function snapshot(page: Page) {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('insight-exchange');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const read = <T>(store: string, query?: IDBValidKey) =>
      new Promise<T>((resolve, reject) => {
        const request =
          query === undefined ? db.transaction(store).objectStore(store).getAll() : db.transaction(store).objectStore(store).get(query);
        request.onsuccess = () => resolve(request.result as T);
        request.onerror = () => reject(request.error);
      });
    const posts = (await read<{ id: number; likes: number; title: string; status: string }[]>('posts')).sort((a, b) => b.id - a.id);
    const changes = (await read<{ value: number } | undefined>('meta', 'changes'))?.value ?? 0;
    db.close();
    const mirror = JSON.parse(localStorage.getItem('posts') ?? '[]') as { id: number; likes: number; title: string; status: string }[];
    return { posts, changes, mirror };
  });
}

/** The mirror holds the newest posts, exactly as IndexedDB has them. */
async function expectMirrorAgrees(page: Page) {
  await expect
    .poll(
      async () => {
        const { posts, mirror } = await snapshot(page);
        if (mirror.length === 0) return 'mirror empty';
        const newest = posts.slice(0, mirror.length).map(({ id, likes, title, status }) => ({ id, likes, title, status }));
        const copied = mirror.map(({ id, likes, title, status }) => ({ id, likes, title, status }));
        return JSON.stringify(newest) === JSON.stringify(copied) ? 'agrees' : 'differs';
      },
      { timeout: 60_000 },
    )
    .toBe('agrees');
}

async function signInAdmin(page: Page) {
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill('pw');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(`${BASE}/`);
}

test('killing Chromium in the middle of a large import leaves whole chunks only, and the mirror agrees after a restart', async () => {
  test.setTimeout(5 * 60_000);
  const profile = mkdtempSync(join(tmpdir(), 'insight-crash-import-'));
  const file = join(profile, '..', `${profile.split('/').pop()}-backup.json`);
  const posts = Array.from({ length: 30_000 }, (_, i) =>
    // The admin's own posts: a local account's are never packed (db/posts/packed.ts), so every one is a row.
    makePost({ id: 1_600_000_000_000 + i * 1000, title: `Imported ${i}`, content: `Row ${i} `.repeat(30), authorEmail: ADMIN }),
  );
  writeFileSync(file, JSON.stringify({ format: 'insight-exchange-backup', version: 1, posts }));
  try {
    let context = await launch(profile);
    let page = context.pages()[0] ?? (await context.newPage());
    await signInAdmin(page);
    await page.goto(`${BASE}/admin`);
    await page.getByLabel('Backup file').setInputFiles(file);
    await page.getByRole('button', { name: 'Import posts' }).click();
    const bar = page.getByRole('progressbar');
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 60_000, intervals: [50] })
      .toBeGreaterThanOrEqual(15);
    killBrowser(profile);
    await context.close().catch(() => undefined);

    context = await launch(profile);
    page = context.pages()[0] ?? (await context.newPage());
    // The last seconds of localStorage writes (the sign-in among them) may die with the browser:
    // IndexedDB is the source of truth for posts, not for the session. Sign in again.
    await signInAdmin(page);
    await page.goto(`${BASE}/admin`);
    await expect(page.getByRole('heading', { name: 'Pending Posts' })).toBeVisible();
    const { posts: stored } = await snapshot(page);
    const imported = stored.filter((post) => post.title.startsWith('Imported '));
    expect(imported.length % 4_000).toBe(0);
    expect(imported.length).toBeGreaterThanOrEqual(4_000);
    expect(imported.length).toBeLessThan(30_000);
    // Whole chunks are whole: the first chunks' posts, every one complete.
    const ids = new Set(imported.map((post) => post.id));
    for (let i = 0; i < imported.length; i += 1) expect(ids.has(1_600_000_000_000 + i * 1000)).toBe(true);
    await expectMirrorAgrees(page);
    await context.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
    rmSync(file, { force: true });
  }
});

test('killing Chromium during a burst of likes keeps every like all-or-nothing, and the mirror agrees after a restart', async () => {
  test.setTimeout(5 * 60_000);
  const profile = mkdtempSync(join(tmpdir(), 'insight-crash-likes-'));
  try {
    let context = await launch(profile);
    let page = context.pages()[0] ?? (await context.newPage());
    await signInAdmin(page);
    await page.goto(`${BASE}/forum`);
    await expect(page.getByRole('article').first()).toBeVisible();
    await putPosts(page, [makePost({ id: 1_900_000_000_000, title: 'Liked until the crash', likes: 0 })]);
    const other = await context.newPage();
    await other.goto(`${BASE}/forum`);
    const before = await snapshot(page);
    // The live list's buttons (#root), not the forum snapshot's painted before the app boots.
    for (const tab of [page, other]) await expect(tab.locator('#root article .app-like').first()).toBeVisible();
    const burst = (tab: Page) =>
      tab.evaluate(() => {
        const button = document.querySelector<HTMLButtonElement>('#root article .app-like');
        for (let i = 0; i < 400; i += 1) button?.click();
      });
    await Promise.all([burst(page), burst(other)]);
    await expect
      .poll(async () => (await snapshot(page)).posts.find((post) => post.id === 1_900_000_000_000)?.likes ?? 0, {
        timeout: 60_000,
        intervals: [20],
      })
      .toBeGreaterThanOrEqual(50);
    killBrowser(profile);
    await context.close().catch(() => undefined);

    context = await launch(profile);
    page = context.pages()[0] ?? (await context.newPage());
    await signInAdmin(page);
    await page.goto(`${BASE}/forum`);
    await expect(page.getByRole('article').first()).toBeVisible();
    const after = await snapshot(page);
    const likes = after.posts.find((post) => post.id === 1_900_000_000_000)!.likes;
    expect(likes).toBeGreaterThanOrEqual(50);
    expect(likes).toBeLessThanOrEqual(800);
    // Each like and its count of changes commit together or not at all.
    expect(after.changes - before.changes).toBe(likes);
    await expectMirrorAgrees(page);
    await context.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
