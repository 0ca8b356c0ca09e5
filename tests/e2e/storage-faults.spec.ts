import { expect, test, type Page } from '@playwright/test';
import { card, getPost, makePost, MEMBER, openForum, putPosts, signIn, submitNewPost, toast } from './support/app';

const UNAVAILABLE = "Insight Exchange can't store data in this browser";

async function expectPublicPagesWork(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Insightful Discussions' })).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'About Us' }).click();
  await expect(page.getByRole('heading', { name: /Mission/ })).toBeVisible();
}

test('with no IndexedDB at all, public pages work and the forum explains what to do', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'indexedDB', { get: () => undefined, configurable: true });
  });
  await expectPublicPagesWork(page);
  await signIn(page, MEMBER);
  for (const path of ['/forum', '/profile']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: UNAVAILABLE })).toBeVisible();
    await expect(page.getByText('private or incognito window')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'About Us' })).toBeVisible();
  }
  await page.getByRole('main').getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'Insightful Discussions' })).toBeVisible();
});

test('with IndexedDB refusing to open (private mode, disabled site data), the same full page shows', async ({ page }) => {
  await page.addInitScript(() => {
    IDBFactory.prototype.open = function open() {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError');
    };
  });
  await expectPublicPagesWork(page);
  await signIn(page, MEMBER);
  await page.goto('/forum');
  await expect(page.getByRole('heading', { name: UNAVAILABLE })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
});

test.describe('when the disk is full', () => {
  test.beforeEach(async ({ page }) => {
    // From the moment the test says so, every IndexedDB write fails the way a full disk does.
    await page.addInitScript(() => {
      const fail = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
      for (const method of ['add', 'put'] as const) {
        const original = IDBObjectStore.prototype[method];
        IDBObjectStore.prototype[method] = function patched(this: IDBObjectStore, ...args: Parameters<typeof original>) {
          if ((window as unknown as { diskFull?: boolean }).diskFull) fail();
          return original.apply(this, args);
        } as typeof original;
      }
      const update = IDBCursor.prototype.update;
      IDBCursor.prototype.update = function patched(this: IDBCursor, value: unknown) {
        if ((window as unknown as { diskFull?: boolean }).diskFull) fail();
        return update.call(this, value);
      };
    });
    await signIn(page, MEMBER);
    await openForum(page);
  });

  test('a new post says Storage is full, keeps the text in the open modal and writes nothing', async ({ page, context }) => {
    const countPosts = () =>
      context.pages()[0]!.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((resolve) => {
          const request = indexedDB.open('insight-exchange');
          request.onsuccess = () => resolve(request.result);
        });
        const count = await new Promise<number>((resolve) => {
          const request = db.transaction('posts').objectStore('posts').count();
          request.onsuccess = () => resolve(request.result);
        });
        db.close();
        return count;
      });
    const before = await countPosts();
    await page.evaluate(() => {
      (window as unknown as { diskFull: boolean }).diskFull = true;
    });
    const dialog = await submitNewPost(page, 'Kept through a full disk', 'Every word of this stays in the form.');
    const error = toast(page, 'Storage is full', 'alert');
    await expect(error).toContainText('Free up space');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Title')).toHaveValue('Kept through a full disk');
    await expect(dialog.getByLabel('Content')).toHaveValue('Every word of this stays in the form.');
    expect(await countPosts()).toBe(before);

    // Space freed: the same form, untouched, goes through.
    await page.evaluate(() => {
      (window as unknown as { diskFull: boolean }).diskFull = false;
    });
    await dialog.getByRole('button', { name: 'Submit Post' }).click();
    await expect(toast(page, 'Post Submitted!')).toBeVisible();
    expect(await countPosts()).toBe(before + 1);
  });

  test('a like says Storage is full and the count goes back', async ({ page }) => {
    const post = makePost({ title: 'Full disk like', likes: 3 });
    await putPosts(page, [post]);
    await page.evaluate(() => {
      (window as unknown as { diskFull: boolean }).diskFull = true;
    });
    await card(page, 'Full disk like').getByRole('button', { name: /^Like/ }).click();
    await expect(toast(page, 'Storage is full', 'alert')).toBeVisible();
    await expect(card(page, 'Full disk like').getByRole('button', { name: /^Like/ })).toHaveText('3');
    expect((await getPost(page, post.id))?.likes).toBe(3);
  });
});

for (const [label, breakStorage] of [
  [
    'localStorage itself throws',
    () => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('Access is denied for this document.', 'SecurityError');
        },
      });
    },
  ],
  [
    'every localStorage call throws',
    () => {
      for (const method of ['getItem', 'setItem', 'removeItem', 'key', 'clear'] as const) {
        Storage.prototype[method] = () => {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        };
      }
    },
  ],
] as const) {
  test(`when ${label}, the app still signs in, reads, likes, posts and signs out`, async ({ page }) => {
    await page.addInitScript(breakStorage);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/login');
    await page.getByLabel('Email').fill(MEMBER);
    await page.getByLabel('Password').fill('pw');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL('/');
    await page.getByRole('banner').getByRole('link', { name: 'Go to Forum' }).click();
    await expect(page.getByRole('article')).toHaveCount(3);
    const first = page.getByRole('article').first();
    const likes = Number((await first.getByRole('button', { name: /^Like/ }).innerText()).replace(/\D/g, ''));
    await first.getByRole('button', { name: /^Like/ }).click();
    await expect(first.getByRole('button', { name: /^Like/ })).toHaveText(String(likes + 1));
    await submitNewPost(page, 'No localStorage needed', 'IndexedDB is the source of truth.');
    await expect(toast(page, 'Post Submitted!')).toBeVisible();
    // A reload keeps the sign-in (from the IndexedDB copy) and the data.
    await page.goto('/profile');
    await expect(card(page, 'No localStorage needed')).toContainText('pending');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL('/login');
    expect(errors).toEqual([]);
  });
}
