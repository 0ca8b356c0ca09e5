// Issue 44: a new device against a server holding 20,000 posts keeps a window of the forum (the
// newest 2,000 and no more); a category it cannot answer alone loads older posts from the server as
// its list ends; offline the list ends plainly with how to keep more; a like given on another device
// to a post beyond the window reaches this one when the post is opened.
import { expect, test } from '@playwright/test';
import { PGlite } from '@electric-sql/pglite';
import { removeData, startServer, syncPort, type RunningServer } from './support/server';
import { card, PHONE, sendOps, signedInDevice, storedPosts, TABLET, waitSynced } from './support/devices';
import { WINDOW_POSTS } from '../../src/db/sync/window';

const POSTS = 20_000;
/** Every thousandth seeded post is a case study: two of them in the window, eighteen older. */
const caseStudy = (n: number) => n % 1_000 === 0;

let server: RunningServer;
/** The id of seeded post n is base + n. */
let base: number;

test.beforeAll(async () => {
  const first = await startServer({ port: syncPort(22) });
  await first.stop();
  // Seeded while no server has the data folder open (PGlite is single-process), in one statement.
  const pglite = await PGlite.create({ dataDir: first.dataDir });
  const [head] = (await pglite.query<{ seq: string; last_post_id: string }>('SELECT seq, last_post_id FROM change_head')).rows;
  const seq = Number(head!.seq);
  base = Math.max(Number(head!.last_post_id), Date.now()) + 1;
  await pglite.query(
    `INSERT INTO posts (id, title, content, category, author, author_email, author_role, likes, comments, views, date, is_top_contributor, tags, status, seq)
     SELECT $1::bigint + n, 'Seeded post ' || n, 'A paragraph of seeded content.',
       CASE WHEN n % 1000 = 0 THEN 'Case Studies' ELSE 'Trends' END, 'Seeded', 'seeded@example.com',
       'user', 0, 0, 0, 'Just now', false, '[]'::jsonb, 'approved', $2::bigint + n
     FROM generate_series(1, $3::int) AS n`,
    [base, seq, POSTS],
  );
  await pglite.query('UPDATE change_head SET seq = $1, last_post_id = $2', [seq + POSTS, base + POSTS]);
  await pglite.query('ANALYZE posts');
  await pglite.close();
  server = await first.restart();
});

test.afterAll(async () => {
  if (!server) return;
  await server.stop();
  removeData(server);
});

test('a new device holds its window and no more; older posts load past it; offline the list ends plainly; a like beyond it arrives', async ({
  browser,
}) => {
  const phone = await signedInDevice(browser, server, 'windowed@example.com', PHONE);
  const { page, context } = phone;

  // The window: the newest 2,000 seeded posts, none older (the sample posts are older still).
  const held = (await storedPosts(page)).filter((post) => post.title.startsWith('Seeded post '));
  const numbers = held.map((post) => Number(post.title.slice('Seeded post '.length))).sort((a, b) => a - b);
  expect(numbers.length).toBe(WINDOW_POSTS);
  expect(numbers[0]).toBe(POSTS - WINDOW_POSTS + 1);
  expect(numbers.at(-1)).toBe(POSTS);

  // Profile says what the device keeps.
  await page.goto('/profile');
  await expect(page.getByTestId('forum-held')).toContainText('the newest, your own and your saved ones');
  await expect(page.getByRole('button', { name: 'Download the whole forum' })).toBeVisible();

  // Case Studies: two in the window; the end of the list brings the eighteen older from the server.
  await page.goto('/forum');
  await page.getByLabel('Category').selectOption('Case Studies');
  await expect(card(page, `Seeded post ${POSTS}`)).toBeVisible();
  // The member scrolls to the end of the list (the list's own pages, then the server's): the button
  // is replaced as each page lands, so each round scrolls again rather than holding on to it.
  const scrollUntil = async (title: string) =>
    expect(async () => {
      await page.mouse.wheel(0, 4000);
      await expect(card(page, title)).toBeVisible({ timeout: 1_000 });
    }).toPass();
  await scrollUntil('Seeded post 18000');
  await scrollUntil('Seeded post 1000');
  const cases = (await storedPosts(page))
    .filter((post) => post.title.startsWith('Seeded post '))
    .map((post) => Number(post.title.slice(12)));
  expect(cases.filter((n) => n <= POSTS - WINDOW_POSTS).every(caseStudy)).toBe(true);
  expect(cases.filter((n) => n <= POSTS - WINDOW_POSTS && caseStudy(n)).length).toBe(18);
  // The server has no older case study: the list ends.
  await expect(page.getByRole('button', { name: 'Load older posts from the server' })).toHaveCount(0);

  // Offline: a category with nothing on the device ends plainly, saying how to keep more.
  await context.setOffline(true);
  await page.getByLabel('Category').selectOption('Qualitative');
  const end = page.getByRole('status').filter({ hasText: 'That’s everything this device holds in Qualitative.' });
  await expect(end).toBeVisible();
  await expect(end.getByRole('link', { name: 'Download the whole forum' })).toBeVisible();
  await context.setOffline(false);
  await waitSynced(page);

  // Another device likes a post far beyond the window; opened on the phone, it shows the like.
  const tablet = await signedInDevice(browser, server, 'liker@example.com', TABLET);
  const far = base + 5;
  const liked = await sendOps(tablet.page, [{ type: 'like', postId: far }], 6);
  expect(liked.results[0]!.status).toBe('applied');
  await page.goto(`/posts/${far}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Seeded post 5' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Like: Seeded post 5 (1 like)' })).toBeVisible();
  await tablet.context.close();
  await context.close();
});
