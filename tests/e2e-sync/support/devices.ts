// Devices for the multi-device tests: each is its own browser context (its own IndexedDB,
// localStorage and cookies), on a phone or tablet viewport, talking to the same real server.
import { expect, request, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { nameFromEmail } from '../../../src/shared/post-rules';
import { signUpOutcome } from '../../server/support/mail-folder';
import { storeSessionAs } from '../../e2e/support/app';
import { ADMIN_PASSWORD, mailDirsOf, type RunningServer } from './server';

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

/** The accounts ensureAccount made, by the server's mail folder and email (a fresh server has none). */
const made = new Set<string>();

/**
 * Makes the member account `email` on the server the page talks to, when there is none yet (Sign In
 * never makes one): through the API, named after the email ("jane.doe@…": Jane Doe, a number added
 * when the name is taken), then the link the server emailed (issue 59: Create Account answers "check
 * your email"; the .eml file under DATA_DIR/mail holds the link that makes the account). Nothing is
 * asked of a local-only host (no server to answer) nor for the server's admin.
 */
export async function ensureAccount(page: Page, email: string, password: string, named = nameFromEmail(email)): Promise<void> {
  await ensureAccountAt(new URL(page.url()).origin, email, password, named);
}

/** ensureAccount for the server at `origin`. */
async function ensureAccountAt(origin: string, email: string, password: string, named = nameFromEmail(email)): Promise<void> {
  if (password === ADMIN_PASSWORD) return;
  const mailDirs = mailDirsOf(origin);
  const key = `${mailDirs?.[0]} ${email}`;
  if (mailDirs && made.has(key)) return;
  const api = await request.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
  try {
    // A local-only host answers every path with the app's page (or 404): only a server answers JSON.
    const health = await api.get('/api/health');
    if (!health.ok() || !(health.headers()['content-type'] ?? '').includes('application/json')) return;
    if (!mailDirs) throw new Error(`no DATA_DIR known for ${origin}: its sign-up emails cannot be read`);
    const since = Date.now() - 1000;
    for (let attempt = 1; attempt < 20; attempt += 1) {
      const name = `${named}${attempt > 1 ? ` ${attempt}` : ''}`;
      const answer = await api.post('/api/session', { data: { mode: 'signup', email, password, name } });
      if (answer.ok()) {
        // An address that has an account gets no link (its owner is told instead, at most once an
        // hour): nothing to make. A link is waited for up to 30 s: a busy CI machine's outbox took more
        // than the 5 s once waited here, the account was never made, and Sign In was refused.
        const token = await signUpOutcome(mailDirs, email, 30_000, since);
        if (token) {
          const confirmed = await api.post('/api/email/confirm', { data: { token, password } });
          if (!confirmed.ok() && confirmed.status() !== 410) throw new Error(`cannot make the account ${email}: ${await confirmed.text()}`);
          // The link's own session ends at once: the member's devices are the browsers they use.
          await api.delete('/api/session');
        }
        made.add(key);
        return;
      }
      const code = ((await answer.json()) as { error?: { code?: string; message?: string } }).error;
      if (code?.code !== 'name_taken') throw new Error(`cannot make the account ${email}: ${code?.message}`);
    }
  } finally {
    await api.dispose();
  }
}

/** Signs in through the login form (the member's account made first when needed) and waits for the success toast. */
export async function signIn(page: Page, email: string, password: string, name?: string): Promise<void> {
  await page.goto('/login');
  await ensureAccount(page, email, password, name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  // The server's answer, to say why when no welcome comes (a refusal's toast leaves after 5 s).
  const answered = page
    .waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/session', {
      timeout: 30_000,
    })
    .then(
      async (response) => `${response.status()} ${(await response.text().catch(() => '')).slice(0, 200)}`,
      () => 'no answer',
    );
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Logged in successfully!' }))
    .toBeVisible()
    .catch(async (error: unknown) => {
      // What the page showed instead, so that a failure says why (a refusal's toast, a lost field, a stuck button).
      const said = await page
        .locator('.app-toasts')
        .innerText()
        .catch(() => '');
      const fields = await page
        .locator('form input')
        .evaluateAll((inputs) =>
          inputs.map((input) => `${(input as HTMLInputElement).type}:${(input as HTMLInputElement).value ? 'filled' : 'empty'}`),
        )
        .catch(() => []);
      throw new Error(
        `${email} was not welcomed on ${page.url()}; the toasts said "${said.trim() || 'nothing'}"; the form's fields: ${fields.join(', ') || 'none'}; POST /api/session: ${await answered}`,
        { cause: error },
      );
    });
}

/** The header's sync status (its accessible name starts with "Sync status:"). */
export const syncStatus = (page: Page) => page.getByRole('status', { name: /^Sync status:/ });

/** Waits until the header says Synced (every change sent and pulled). */
export async function waitSynced(page: Page, timeout = 30_000): Promise<void> {
  await expect(page.getByRole('status', { name: 'Sync status: Synced' })).toBeVisible({ timeout });
}

/**
 * The device's outbox is empty and it says Synced: what it did has been answered by the server and
 * pulled back. "Synced" alone is not that: a change held for Undo waits 5 s, and one made a moment
 * before the check may not be counted yet.
 */
export async function reachedServer(page: Page): Promise<void> {
  await expect.poll(async () => (await storedRows(page, 'outbox')).length, { timeout: 30_000 }).toBe(0);
  await waitSynced(page);
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

/** The password of an account in these tests: the server's admin password, else a long uncommon one of the email's name. */
export const passwordOf = (email: string) =>
  email === 'admin@insightexchange.app' ? ADMIN_PASSWORD : `${email.split('@')[0]}-quiet-harbor-7419`;

/** A fresh device on `server`, signed in as `email` (its account made on first use), on `path` and synced. */
export async function signedInDevice(
  browser: Browser,
  server: RunningServer,
  email: string,
  viewport = PHONE,
  path = '/forum',
  serviceWorkers: 'allow' | 'block' = 'block',
): Promise<Device> {
  const opened = await newDevice(browser, server, viewport, serviceWorkers);
  await signInQuietly(opened, server, email, passwordOf(email));
  await opened.page.goto(path);
  await waitSynced(opened.page);
  return opened;
}

/**
 * Signs a device that has not opened a page yet in without the form, for cases whose point is not
 * signing in (signIn is the form's way): the server signs in through the device's own request
 * context, whose cookies are the browser's, and the device's first page load reads the session the
 * form would have stored (`{ email, name, role }` under USER_KEY) and confirms it with the server,
 * as a reopened app does. It saves the pages of /login and / and the welcome. What only the form
 * does is not done: no verifier for an offline sign-in is kept, and the theme cookie is not set.
 */
export async function signInQuietly(device: Device, server: RunningServer, email: string, password: string): Promise<void> {
  await ensureAccountAt(server.url, email, password);
  const answer = await device.context.request.post(`${server.url}/api/session`, {
    data: { mode: 'signin', email, password },
    headers: { origin: server.url },
  });
  if (!answer.ok())
    throw new Error(`${email} could not sign in through the API: ${answer.status()} ${(await answer.text()).slice(0, 200)}`);
  const { user } = (await answer.json()) as { user: { email: string; name: string; role: string } };
  await storeSessionAs(device.page, user);
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
