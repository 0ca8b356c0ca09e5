// Helpers for end-to-end tests: sign in through the UI, reach a ready forum, and write posts
// straight into the app's IndexedDB (as if they had been there already).
import { expect, type Locator, type Page } from '@playwright/test';
import type { Post, PostEdits, Reply } from '../../../src/shared/post-rules';
import { USER_KEY } from '../../../src/db/contracts';
import { makeSession } from '../../../src/db/members/session-rules';

export const ADMIN = 'admin@insightexchange.app';
export const MEMBER = 'jane.doe@example.com';

/** A post exactly as the app stores it (with its edits, when it has any). */
export type TestPost = Post & PostEdits;

let nextId = 1_700_000_000_000;

export function makePost(overrides: Partial<TestPost> = {}): TestPost {
  nextId += 1000;
  return {
    id: nextId,
    title: `Test post ${nextId}`,
    content: 'A short note about sampling.',
    category: 'Quantitative',
    author: 'Test Author',
    authorEmail: 'author@example.com',
    authorRole: 'user',
    likes: 0,
    comments: 0,
    views: 0,
    date: '1 hour ago',
    isTopContributor: false,
    tags: [],
    status: 'approved',
    ...overrides,
  };
}

/** A stored reply row: the `number`th visible reply (from 1) of a post, by "Member <number>". */
export function makeReplyRow(postId: number, number: number, overrides: Partial<Reply> = {}): Reply & { listed: 1 } {
  return {
    id: `thread-${postId}-${number}`,
    postId,
    author: `Member ${number}`,
    authorEmail: `member${number}@example.com`,
    authorRole: 'user',
    content: `Reply ${number}`,
    quoteId: null,
    createdAt: 1_700_000_000_000 + (number - 1) * 1000,
    editedAt: null,
    state: 'visible',
    listed: 1,
    ...overrides,
  };
}

/** Signs in through the login form; any email works, as the spec says. */
export async function signIn(page: Page, email: string, password = 'pass-1234'): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('status').filter({ hasText: 'Logged in successfully!' })).toBeVisible();
}

/**
 * Signs in without the form, for cases whose point is a screen, not signing in: stores the session
 * that the form's Sign In stores on a local-only device (`{ email, name, role }` under
 * `insightExchangeUser`), read by this tab's next page load. The form costs a page load of /login
 * and of / before the case's own first page. Once per tab, so a Log out later in the case holds.
 */
export async function storeSession(page: Page, email: string): Promise<void> {
  await storeSessionAs(page, makeSession(email, ''));
}

/** storeSession with the session given as it is (a server's answer names the member and the role). */
export async function storeSessionAs(page: Page, session: { email: string; name: string; role: string }): Promise<void> {
  await page.addInitScript(
    ({ key, value }) => {
      try {
        if (sessionStorage.getItem('e2e-session-stored') !== null) return;
        localStorage.setItem(key, value);
        sessionStorage.setItem('e2e-session-stored', '1');
      } catch {
        // The first blank document has no storage: the next page load stores it.
      }
    },
    { key: USER_KEY, value: JSON.stringify({ email: session.email, name: session.name, role: session.role }) },
  );
}

/** Opens /forum and waits until the sample posts (or other posts) are on screen. */
export async function openForum(page: Page): Promise<void> {
  await page.goto('/forum');
  await expect(page.getByRole('article').first()).toBeVisible();
}

/**
 * Writes posts into the app's IndexedDB (the app must have opened it once on this origin), then
 * reloads: a raw IndexedDB write, unlike the app's own, does not notify live queries.
 */
export async function putPosts(page: Page, posts: TestPost[], { reload = true } = {}): Promise<void> {
  await putRows(page, 'posts', posts);
  if (reload) await page.reload();
}

/** Writes rows into one store of the app's IndexedDB as they are (no reload: see putPosts). */
export async function putRows(page: Page, store: string, rows: readonly object[]): Promise<void> {
  await page.evaluate(
    async ({ name, items }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('insight-exchange');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(name, 'readwrite');
        for (const item of items) tx.objectStore(name).put(item);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { name: store, items: rows },
  );
}

/** Reads one row of a store of the app's IndexedDB by its key. */
export async function getRow<T>(page: Page, store: string, key: number | string | (number | string)[]): Promise<T | undefined> {
  return page.evaluate(
    async ({ name, id }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('insight-exchange');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const row = await new Promise<unknown>((resolve, reject) => {
        const request = db.transaction(name).objectStore(name).get(id);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return row as T | undefined;
    },
    { name: store, id: key },
  );
}

/** Reads one post from the app's IndexedDB. */
export function getPost(page: Page, id: number): Promise<TestPost | undefined> {
  return getRow<TestPost>(page, 'posts', id);
}

/** The card (article) whose heading is this title. */
export const card = (page: Page, title: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** Opens New Post from the header, fills it in and presses Submit Post; returns the dialog. */
export async function submitNewPost(page: Page, title: string, content: string, category?: string): Promise<Locator> {
  await page.getByRole('button', { name: 'New Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill(content);
  if (category) await dialog.getByLabel('Category').selectOption(category);
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  return dialog;
}

/** A toast by its title (role status for success, alert for errors). */
export const toast = (page: Page, title: string, role: 'status' | 'alert' = 'status') =>
  page.locator('.app-toasts').getByRole(role).filter({ hasText: title });

/** The `posts` array the app mirrors into localStorage, read in the page (null when absent). */
export async function mirroredPost(page: Page, id: number): Promise<TestPost | null | undefined> {
  return page.evaluate((key) => {
    const raw = localStorage.getItem('posts');
    if (raw === null) return null;
    return (JSON.parse(raw) as TestPost[]).find((post) => post.id === key);
  }, id);
}

/** The like count a card shows, as a number. */
export async function shownLikes(page: Page, title: string): Promise<number> {
  const text = await card(page, title).getByRole('button', { name: /^Like/ }).innerText();
  return Number(text.replace(/\D/g, ''));
}

/** Fires the browser's install offer (Chromium's beforeinstallprompt), so the header shows Install. */
export async function offerInstall(page: Page): Promise<void> {
  await page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
      prompt: () => Promise<void>;
      userChoice: Promise<unknown>;
    };
    event.prompt = async () => undefined;
    event.userChoice = Promise.resolve({ outcome: 'dismissed' });
    window.dispatchEvent(event);
  });
}
