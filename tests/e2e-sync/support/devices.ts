// Devices for the multi-device tests: each is its own browser context (its own IndexedDB,
// localStorage and cookies), on a phone or tablet viewport, talking to the same real server.
import { expect, request, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, type RunningServer } from './server';

export const PHONE = { width: 390, height: 844 };
export const TABLET = { width: 820, height: 1180 };

export interface Device {
  context: BrowserContext;
  page: Page;
}

/** A fresh device on `server` (service workers blocked unless asked for). */
export async function newDevice(
  browser: Browser,
  server: RunningServer,
  viewport = PHONE,
  serviceWorkers: 'allow' | 'block' = 'block',
): Promise<Device> {
  const context = await browser.newContext({ baseURL: server.url, viewport, serviceWorkers });
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the login form and waits for the success toast. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Logged in successfully!' })).toBeVisible();
}

/** The header's sync status (its accessible name starts with "Sync status:"). */
export const syncStatus = (page: Page) => page.getByRole('status', { name: /^Sync status:/ });

/** Waits until the header says Synced (every change sent and pulled). */
export async function waitSynced(page: Page, timeout = 30_000): Promise<void> {
  await expect(page.getByRole('status', { name: 'Sync status: Synced' })).toBeVisible({ timeout });
}

export interface StoredPost {
  id: number;
  title: string;
  likes: number;
  status: string;
  authorEmail: string;
}

/** Every row of one IndexedDB store of the device (`posts`, `replies`…). */
export function storedRows<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('insight-exchange');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const rows = await new Promise<T[]>((resolve, reject) => {
      const all = db.transaction(name).objectStore(name).getAll();
      all.onsuccess = () => resolve(all.result as T[]);
      all.onerror = () => reject(all.error);
    });
    db.close();
    return rows;
  }, store);
}

/** Every post in the device's IndexedDB. */
export const storedPosts = (page: Page) => storedRows<StoredPost>(page, 'posts');

/** The `posts` mirror in the device's localStorage (empty when absent). */
export function mirroredPosts(page: Page): Promise<StoredPost[]> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('posts') ?? '[]') as StoredPost[]);
}

/** What the server holds, as the admin sees it through the API. */
export async function serverPosts(server: RunningServer, adminPassword: string): Promise<StoredPost[]> {
  const api = await request.newContext({ baseURL: server.url, extraHTTPHeaders: { origin: server.url } });
  try {
    const signedIn = await api.post('/api/session', {
      data: { mode: 'signin', email: 'admin@insightexchange.app', password: adminPassword },
    });
    expect(signedIn.ok()).toBe(true);
    const posts: StoredPost[] = [];
    let after = 0;
    for (;;) {
      const page = (await (await api.get(`/api/changes?after=${after}&limit=1000`)).json()) as {
        posts: StoredPost[];
        cursor: number;
        more: boolean;
      };
      posts.push(...page.posts);
      after = page.cursor;
      if (!page.more) return posts;
    }
  } finally {
    await api.dispose();
  }
}

/** The card (article) whose heading is this title. */
export const card = (page: Page, title: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** The like count a card shows. */
export async function shownLikes(page: Page, title: string): Promise<number> {
  const text = await card(page, title).getByRole('button', { name: /^Like/ }).innerText();
  return Number(text.replace(/\D/g, ''));
}

/** Opens New Post, fills it in and submits it. */
export async function submitNewPost(page: Page, title: string, content: string): Promise<void> {
  await page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill(content);
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Post Submitted!' })).toBeVisible();
}

/** The password of an account in these tests: the server's admin password, else "<email>-pw". */
export const passwordOf = (email: string) => (email === 'admin@insightexchange.app' ? ADMIN_PASSWORD : `${email}-pw`);

/** A fresh device on `server`, signed in as `email` (an account made on first sign-in), on `path` and synced. */
export async function signedInDevice(
  browser: Browser,
  server: RunningServer,
  email: string,
  viewport = PHONE,
  path = '/forum',
  serviceWorkers: 'allow' | 'block' = 'block',
): Promise<Device> {
  const opened = await newDevice(browser, server, viewport, serviceWorkers);
  await signIn(opened.page, email, passwordOf(email));
  await opened.page.goto(path);
  await waitSynced(opened.page);
  return opened;
}

export interface OpAnswer {
  results: { id: string; status: string; code?: string; postId?: number }[];
}

/** Sends operations through the API as the page's member, speaking `protocol`; each gets a new id. */
export function sendOps(page: Page, ops: Record<string, unknown>[], protocol = 4): Promise<OpAnswer> {
  return page.evaluate(
    async ({ list, version }) => {
      const answer = await fetch('/api/ops', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-insight-protocol': String(version) },
        body: JSON.stringify({ ops: list.map((op) => ({ id: crypto.randomUUID(), ...op })) }),
      });
      return (await answer.json()) as OpAnswer;
    },
    { list: ops, version: protocol },
  );
}
