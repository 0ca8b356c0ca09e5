import { expect, test, type Page } from '@playwright/test';
import { ADMIN, card, getPost, makePost, MEMBER, mirroredPost, openForum, putPosts, shownLikes, storeSession, toast } from './support/app';

// Many tabs at once: these tests load the machine, so they run one at a time.
test.describe.configure({ mode: 'serial' });

/** Clicks a card's Like button `times` times in one go (as fast as events can be dispatched). */
async function burstOfLikes(page: Page, title: string, times: number): Promise<void> {
  await page.evaluate(
    ({ heading, count }) => {
      const article = [...document.querySelectorAll('article')].find((element) => element.querySelector('h3')?.textContent === heading);
      const button = article?.querySelector<HTMLButtonElement>('.app-like');
      if (!button) throw new Error(`No like button for ${heading}`);
      for (let i = 0; i < count; i += 1) button.click();
    },
    { heading: title, count: times },
  );
}

// Three trials: each is the same race (8 tabs, 2,000 transactions); ten cost three and a half minutes of CI.
test('8 tabs clicking Like 250 times each end with exactly +2,000 everywhere, 3 trials in a row', async ({ page, context }) => {
  test.setTimeout(8 * 60_000);
  await storeSession(page, MEMBER);
  await openForum(page);
  const post = makePost({ title: 'Everyone likes this', likes: 7 });
  await putPosts(page, [post]);
  const tabs = [page];
  while (tabs.length < 8) {
    const tab = await context.newPage();
    await tab.goto('/forum');
    tabs.push(tab);
  }
  for (const tab of tabs) await expect(card(tab, 'Everyone likes this')).toBeVisible();

  let expected = 7;
  for (let trial = 1; trial <= 3; trial += 1) {
    await Promise.all(tabs.map((tab) => burstOfLikes(tab, 'Everyone likes this', 250)));
    expected += 2_000;
    await expect
      .poll(async () => (await getPost(page, post.id))?.likes, { timeout: 120_000, message: `IndexedDB, trial ${trial}` })
      .toBe(expected);
    for (const [index, tab] of tabs.entries()) {
      await expect
        .poll(() => shownLikes(tab, 'Everyone likes this'), { timeout: 60_000, message: `tab ${index + 1}, trial ${trial}` })
        .toBe(expected);
    }
    await expect
      .poll(async () => (await mirroredPost(page, post.id))?.likes, { timeout: 60_000, message: `posts in localStorage, trial ${trial}` })
      .toBe(expected);
  }
  expect(expected).toBe(6_007);
});

test('two admins reviewing the same post at the same moment: exactly one wins, all tabs agree', async ({ page, context }) => {
  await storeSession(page, ADMIN);
  await openForum(page);
  const post = makePost({ title: 'Contested post', status: 'pending' });
  await putPosts(page, [post]);
  await page.goto('/admin');
  const other = await context.newPage();
  await other.goto('/admin');
  const starter = await context.newPage();
  await starter.goto('/about');
  for (const tab of [page, other]) await expect(card(tab, 'Contested post')).toBeVisible();

  // Both tabs wait on one signal, then click at once: neither can have seen the other's result.
  for (const [index, tab] of [page, other].entries()) {
    await tab.evaluate(
      ({ action }) => {
        const gate = new BroadcastChannel('test-gate');
        (window as unknown as { clicked: Promise<void> }).clicked = new Promise<void>((resolve) => {
          gate.onmessage = () => {
            const article = [...document.querySelectorAll('article')].find((element) => element.textContent?.includes('Contested post'));
            const button = [...(article?.querySelectorAll('button') ?? [])].find((element) => element.textContent?.includes(action));
            button?.click();
            gate.close();
            resolve();
          };
        });
      },
      { action: index === 0 ? 'Approve' : 'Reject' },
    );
  }
  await starter.evaluate(() => new BroadcastChannel('test-gate').postMessage('go'));
  await Promise.all([page, other].map((tab) => tab.evaluate(() => (window as unknown as { clicked: Promise<void> }).clicked)));

  const approved = toast(page, 'Post approved');
  const rejected = toast(other, 'Post rejected');
  await expect(approved.or(toast(page, 'Already reviewed', 'alert'))).toBeVisible();
  await expect(rejected.or(toast(other, 'Already reviewed', 'alert'))).toBeVisible();
  // Read once, while both toasts are surely up (each stays 5 s).
  const approvedWon = (await approved.count()) === 1;
  const rejectedWon = (await rejected.count()) === 1;
  expect(Number(approvedWon) + Number(rejectedWon)).toBe(1);
  const loser = approvedWon ? other : page;
  await expect(toast(loser, 'Already reviewed', 'alert')).toContainText('This post was already reviewed');

  const finalStatus = (await getPost(page, post.id))?.status;
  expect(finalStatus).toBe(approvedWon ? 'approved' : 'rejected');
  for (const tab of [page, other]) await expect(tab.getByText('All caught up!')).toBeVisible();
  await starter.goto('/forum');
  await expect(starter.getByRole('article').first()).toBeVisible();
  await expect(card(starter, 'Contested post')).toHaveCount(finalStatus === 'approved' ? 1 : 0);
});

test('an older build writing posts while new tabs like the same post loses none of their likes', async ({ page, context }) => {
  test.setTimeout(5 * 60_000);
  await storeSession(page, MEMBER);
  await openForum(page);
  const second = await context.newPage();
  await second.goto('/forum');
  // The older build: a page of this origin that keeps posts in localStorage, read-modify-write.
  await context.route('**/older-build.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Older build</title><p>Older build</p>' }),
  );
  const older = await context.newPage();
  await older.goto('/older-build.html');
  // The older build adds the post: the new tabs bring it into IndexedDB and mirror it back.
  const post = makePost({ id: 1_950_000_000_000, title: 'Liked by old and new', likes: 100 });
  await expect.poll(() => older.evaluate(() => localStorage.getItem('posts') !== null), { timeout: 30_000 }).toBe(true);
  await older.evaluate((added) => {
    const posts = JSON.parse(localStorage.getItem('posts') ?? '[]') as unknown[];
    localStorage.setItem('posts', JSON.stringify([added, ...posts]));
  }, post);
  await expect.poll(async () => (await getPost(page, post.id))?.likes, { timeout: 30_000 }).toBe(100);
  await expect.poll(async () => (await mirroredPost(page, post.id))?.likes, { timeout: 30_000 }).toBe(100);
  for (const tab of [page, second]) await expect(card(tab, 'Liked by old and new')).toBeVisible();

  const olderLike = (key: number, times: number, pauseMs: number) =>
    older.evaluate(
      async ({ id, count, pause }) => {
        for (let i = 0; i < count; i += 1) {
          const posts = JSON.parse(localStorage.getItem('posts') ?? '[]') as { id: number; likes: number }[];
          const target = posts.find((item) => item.id === id);
          if (target) target.likes += 1;
          localStorage.setItem('posts', JSON.stringify(posts));
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      },
      { id: key, count: times, pause: pauseMs },
    );

  await Promise.all([
    burstOfLikes(page, 'Liked by old and new', 30),
    burstOfLikes(second, 'Liked by old and new', 30),
    olderLike(post.id, 20, 15),
  ]);

  // Settled: IndexedDB, the mirror and both screens agree, and the 60 new likes are all there.
  let settled = 0;
  await expect
    .poll(
      async () => {
        const stored = (await getPost(page, post.id))?.likes ?? 0;
        const mirrored = (await mirroredPost(page, post.id))?.likes;
        const shown = [await shownLikes(page, 'Liked by old and new'), await shownLikes(second, 'Liked by old and new')];
        settled = stored;
        return mirrored === stored && shown.every((value) => value === stored);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  expect(settled).toBeGreaterThanOrEqual(100 + 60);
  expect(settled).toBeLessThanOrEqual(100 + 60 + 20);

  // One more like from the older build, alone: it counts exactly once, though two tabs see it.
  await olderLike(post.id, 1, 0);
  await expect.poll(async () => (await getPost(page, post.id))?.likes, { timeout: 30_000 }).toBe(settled + 1);
  await expect.poll(() => shownLikes(second, 'Liked by old and new')).toBe(settled + 1);
  await expect.poll(async () => (await mirroredPost(page, post.id))?.likes).toBe(settled + 1);
});
