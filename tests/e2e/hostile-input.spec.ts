import { expect, test, type Page } from '@playwright/test';
import { ADMIN, card, getPost, makePost, openForum, putPosts, storeSession, submitNewPost } from './support/app';
import { XSS_PAYLOADS } from './support/xss-payloads';

/** Nothing ran: no flag set, no dialog, no element or attribute that came from a payload. */
async function expectNothingExecuted(page: Page, label: string) {
  const found = await page.evaluate(() => ({
    flag: (window as unknown as { __xss?: unknown }).__xss,
    injected: document.querySelectorAll(
      'main iframe, main object, main embed, main svg[onload], main img[onerror], main [onfocus], main [onmouseover], main [ontoggle], main style, main base, main meta, main script',
    ).length,
    bodyVisible: getComputedStyle(document.body).display !== 'none',
  }));
  expect(found, label).toEqual({ flag: undefined, injected: 0, bodyVisible: true });
}

test.use({ viewport: { width: 1280, height: 900 } });

test(`${XSS_PAYLOADS.length} XSS payloads as titles, content, tags, names and emails execute nothing and show as text`, async ({
  page,
}) => {
  expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50);
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  const requests: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://localhost')) requests.push(request.url());
  });

  await storeSession(page, ADMIN);
  await openForum(page);
  const posts = XSS_PAYLOADS.flatMap((payload, index) => [
    makePost({
      id: 1_750_000_000_000 + index * 10,
      title: payload,
      content: `Content ${index}: ${payload}`,
      author: payload,
      authorEmail: `${payload}@example.com`,
      category: index % 7 === 0 ? payload : 'Trends',
      tags: [payload],
      status: 'approved',
    }),
    makePost({
      id: 1_750_000_000_001 + index * 10,
      title: payload,
      content: payload,
      author: payload,
      authorEmail: ADMIN,
      status: 'pending',
    }),
  ]);
  await putPosts(page, posts);
  // The stored user (as an older build or another tab might write it) carries a payload name too.
  await page.evaluate(
    (name) => localStorage.setItem('insightExchangeUser', JSON.stringify({ email: 'admin@insightexchange.app', name, role: 'admin' })),
    XSS_PAYLOADS[7],
  );

  const cards: Record<string, number> = {
    '/forum': XSS_PAYLOADS.length + 3,
    '/profile': XSS_PAYLOADS.length,
    '/admin': XSS_PAYLOADS.length,
  };
  for (const path of ['/', '/about', '/forum', '/profile', '/admin']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    const expected = cards[path];
    if (expected) {
      // Scroll to the end until every card of the live list (inside #root: not the forum snapshot
      // it replaces) is on screen, so every payload is rendered once. A card re-rendered while it
      // is scrolled to is simply tried again.
      const live = page.locator('#root').getByRole('article');
      await expect
        .poll(async () => {
          await live
            .last()
            .scrollIntoViewIfNeeded({ timeout: 5_000 })
            .catch(() => undefined);
          return live.count();
        })
        .toBe(expected);
    }
    await expectNothingExecuted(page, path);
  }

  await page.goto('/forum');
  for (const payload of XSS_PAYLOADS.slice(0, 12)) {
    await page.getByLabel('Search posts').fill(payload.slice(0, 40));
    await expect(page.locator('.app-results')).toContainText('for “');
    await expectNothingExecuted(page, `search ${payload}`);
  }
  await page.getByLabel('Search posts').fill('');

  // Shown as text: a title with markup reads back exactly as typed (the queue is oldest first: the
  // first payload's pending post is on its first page).
  await page.goto('/admin');
  await expect(card(page, XSS_PAYLOADS[0]!).first()).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(XSS_PAYLOADS[7]!);
  expect(dialogs).toEqual([]);
  expect(requests).toEqual([]);
});

test('typed payloads in the New Post form are stored and shown as text', async ({ page }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
  for (const payload of XSS_PAYLOADS.slice(0, 5)) {
    const dialog = await submitNewPost(page, payload.slice(0, 200), payload);
    await expect(dialog).toBeHidden();
  }
  await page.goto('/admin');
  for (const payload of XSS_PAYLOADS.slice(0, 5)) await expect(card(page, payload.slice(0, 200))).toBeVisible();
  await expectNothingExecuted(page, 'admin after typed payloads');
});

test('the Content-Security-Policy is in force and normal use breaks none of it', async ({ page }) => {
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.goto('/');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'self'");
  expect(csp).not.toContain("'unsafe-inline'");

  // Normal use, end to end: browse, sign up, like, search, post, moderate, back up.
  await page.getByRole('banner').getByRole('link', { name: 'About Us' }).click();
  await page.getByRole('banner').getByRole('link', { name: 'Join Now' }).click();
  await page.getByLabel('Name').fill('Ada Admin');
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill('a long passphrase');
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await expect(page).toHaveURL('/');
  await page.goto('/forum');
  await page.getByRole('article').first().getByRole('button', { name: /^Like/ }).click();
  await page.getByLabel('Search posts').fill('diary');
  await expect(page.getByRole('article')).toHaveCount(1);
  await submitNewPost(page, 'CSP check', 'Nothing inline.');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true }).click();
  await card(page, 'CSP check').getByRole('button', { name: 'Approve' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export all posts' }).click();
  await download;
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('region', { name: 'Storage on this device' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);

  // And it is enforced: an inline script injected by hand does not run.
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.body.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false;
  });
  expect(ran).toBe(false);
});

test('very long text from an import or the mirror is stored and shown without breaking the layout', async ({ page }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
  const longTitle = `Long title ${'lorem ipsum dolor sit amet '.repeat(370)}`.slice(0, 10_000);
  const megabyte = `${'market research '.repeat(65_536)}needle-at-the-very-end`;
  await putPosts(page, [makePost({ id: 1_950_000_000_000, title: longTitle, content: megabyte, tags: ['x'.repeat(5_000)] })]);
  const post = page.getByRole('article').filter({ hasText: 'Long title lorem ipsum' });
  await expect(post).toBeVisible();
  // Measured on the card as it settles: the list may re-render it once more (the search worker
  // indexing the megabyte), which detaches the element a single boundingBox() call would read.
  await expect.poll(async () => (await post.boundingBox())?.height ?? Number.POSITIVE_INFINITY).toBeLessThan(600);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.getByLabel('Search posts').fill('NEEDLE-AT-THE-VERY-END');
  await expect(page.getByRole('article')).toHaveCount(1);
});

test('an unbroken 300,000-character title, author and category paint quickly, cut for display (the stored value stays whole)', async ({
  page,
}) => {
  await storeSession(page, ADMIN);
  await openForum(page);
  const title = 'T'.repeat(300_000);
  await putPosts(page, [
    makePost({ id: 1_960_000_000_000, title, author: 'AV'.repeat(50_000), category: 'C'.repeat(100_000), content: 'x'.repeat(100_000) }),
  ]);
  const post = page.getByRole('article').first();
  await expect(post).toContainText('TTTT');
  const shown = await post.evaluate((element) => ({
    title: element.querySelector('h3')?.textContent?.length ?? 0,
    author: element.querySelector('.app-post-author')?.textContent?.length ?? 0,
    category: element.querySelector('.app-category')?.textContent?.length ?? 0,
    labels: Math.max(...[...element.querySelectorAll('[aria-label]')].map((node) => node.getAttribute('aria-label')!.length)),
  }));
  expect(shown.title).toBeLessThanOrEqual(201);
  expect(shown.author).toBeLessThanOrEqual(101);
  expect(shown.category).toBeLessThanOrEqual(61);
  expect(shown.labels).toBeLessThan(300);
  expect((await getPost(page, 1_960_000_000_000))?.title).toHaveLength(300_000);
});

test('emoji, right-to-left text and combining marks display as written and are found in any case', async ({ page }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
  const titles = [
    'Café culture ☕ and 🚀 launches',
    'نتائج الاستطلاع في السعودية',
    'סקר לקוחות בישראל',
    'Cafe\u0301 society in Zürich',
    'ΔΙΑΦΉΜΙΣΗ and naïve panels',
  ];
  await putPosts(
    page,
    titles.map((title) => makePost({ title, content: 'Unicode check' })),
  );
  for (const title of titles) await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
  const search = page.getByLabel('Search posts');
  const cases: [string, number][] = [
    ['CAFÉ', 2],
    ['café', 2],
    ['🚀', 1],
    ['الاستطلاع', 1],
    ['ישראל', 1],
    ['zürich', 1],
    ['διαφήμιση', 1],
    ['NAÏVE', 1],
  ];
  for (const [query, expected] of cases) {
    await search.fill(query);
    await expect(page.locator('.app-results')).toContainText(`for “${query}”`);
    await expect(page.getByRole('article'), query).toHaveCount(expected);
  }
});
