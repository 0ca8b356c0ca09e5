// Replies across devices through the real server: a reply on a phone appears live on a
// tablet with the post open; an offline reply is sent exactly once; a hidden reply disappears for
// members on every device; a reply to another member's pending post is refused by the server;
// comment counts agree on every device, in the `posts` mirror and on the server; a deep link to a
// post opens offline.
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, serverForSpec, syncPort } from './support/server';
import {
  PHONE,
  TABLET,
  card,
  mirroredPosts,
  newDevice,
  serverPosts,
  signIn,
  storedPosts,
  storedRows,
  waitSynced,
  type Device,
  passwordOf,
} from './support/devices';

const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';
const ADMIN = 'admin@insightexchange.app';

const spec = serverForSpec(syncPort(13));

type Browser = Parameters<typeof newDevice>[0];

async function device(browser: Browser, email: string, viewport = PHONE, serviceWorkers: 'allow' | 'block' = 'block'): Promise<Device> {
  const opened = await newDevice(browser, spec.server, viewport, serviceWorkers);
  await signIn(opened.page, email, email === ADMIN ? ADMIN_PASSWORD : passwordOf(email));
  await opened.page.goto('/forum');
  await expect(card(opened.page, SAMPLE)).toBeVisible();
  await waitSynced(opened.page);
  return opened;
}

/** Opens the sample post's page from its card's title, as a person would. */
async function openSample(page: Page): Promise<void> {
  await page.goto('/forum');
  await card(page, SAMPLE).getByRole('link', { name: SAMPLE }).click();
  await expect(page.getByRole('heading', { level: 1, name: SAMPLE })).toBeVisible();
}

const replies = (page: Page) => page.getByRole('list', { name: 'Replies' }).getByRole('listitem');
const reply = (page: Page, text: string) => replies(page).filter({ hasText: text });

async function postReply(page: Page, text: string): Promise<void> {
  await page.getByLabel('Your reply').fill(text);
  await page.getByRole('button', { name: 'Post Reply' }).click();
  await expect(reply(page, text)).toBeVisible();
}

/** The number a card shows for its comments. */
async function shownComments(page: Page, title: string): Promise<number> {
  const text = (await card(page, title).locator('.app-stat-comments').textContent()) ?? '';
  return Number(text.replace(/\D/g, ''));
}

/** The sample post's `comments` in IndexedDB and in the `posts` mirror of a device. */
async function storedComments(page: Page): Promise<{ stored: number | undefined; mirrored: number | undefined }> {
  const stored = (await storedPosts(page)).find((post) => post.title === SAMPLE) as { comments?: number } | undefined;
  const mirrored = (await mirroredPosts(page)).find((post) => post.title === SAMPLE) as { comments?: number } | undefined;
  return { stored: stored?.comments, mirrored: mirrored?.comments };
}

interface WireReply {
  id: string;
  postId: number;
  content: string;
  state: string;
}

/** Every reply the server holds, as a signed-in page sees it through the API. */
function pulledReplies(page: Page): Promise<WireReply[]> {
  return page.evaluate(async () => {
    const all: WireReply[] = [];
    let after = 0;
    for (;;) {
      const answer = await fetch(`/api/changes?after=${after}&limit=1000`, { headers: { 'x-insight-protocol': '2' } });
      const body = (await answer.json()) as { replies: WireReply[]; cursor: number; more: boolean };
      all.push(...body.replies);
      after = body.cursor;
      if (!body.more) return all;
    }
  });
}

/** The replies in a device's IndexedDB. */
const storedReplies = (page: Page) => storedRows<WireReply>(page, 'replies');

test('a reply on a phone appears live on a tablet with the post open, and the counts agree everywhere', async ({ browser }) => {
  const phone = await device(browser, 'ana@example.com');
  const tablet = await device(browser, 'ben@example.com', TABLET);
  const before = await shownComments(phone.page, SAMPLE);
  await openSample(tablet.page);
  await openSample(phone.page);

  const text = 'Live from the phone: we double-code 20% of the open-ends.';
  await postReply(phone.page, text);
  await expect(reply(tablet.page, text)).toBeVisible();
  await expect(reply(tablet.page, text)).toContainText('Ana');

  for (const { page } of [phone, tablet]) {
    await waitSynced(page);
    await page.goto('/forum');
    await expect.poll(() => shownComments(page, SAMPLE)).toBe(before + 1);
    await expect.poll(() => storedComments(page)).toEqual({ stored: before + 1, mirrored: before + 1 });
  }
  const onServer = (await serverPosts(spec.server, ADMIN_PASSWORD)).find((post) => post.title === SAMPLE) as { comments?: number };
  expect(onServer.comments).toBe(before + 1);
  await phone.context.close();
  await tablet.context.close();
});

test('a reply written offline is sent exactly once when the network returns', async ({ browser }) => {
  const phone = await device(browser, 'cy@example.com');
  const tablet = await device(browser, 'dee@example.com', TABLET);
  await openSample(phone.page);
  await openSample(tablet.page);

  await phone.context.setOffline(true);
  const text = 'Written in a tunnel: weighting kept as it was.';
  await postReply(phone.page, text);
  await expect(reply(tablet.page, text)).toHaveCount(0);

  await phone.context.setOffline(false);
  await waitSynced(phone.page);
  await expect(reply(tablet.page, text)).toHaveCount(1);
  // Once on the server, once on each device, even after a reload.
  expect((await pulledReplies(tablet.page)).filter((row) => row.content === text)).toHaveLength(1);
  await phone.page.reload();
  await waitSynced(phone.page);
  await expect(reply(phone.page, text)).toHaveCount(1);
  expect((await storedReplies(phone.page)).filter((row) => row.content === text)).toHaveLength(1);
  await phone.context.close();
  await tablet.context.close();
});

test('a reply an admin hides disappears for members on every device; restoring brings it back', async ({ browser }) => {
  const writer = await device(browser, 'eve@example.com');
  const reader = await device(browser, 'fay@example.com', TABLET);
  const admin = await device(browser, ADMIN, TABLET);
  for (const { page } of [writer, reader, admin]) await openSample(page);

  const text = 'Buy cheap survey panels at my site!';
  await postReply(writer.page, text);
  await expect(reply(admin.page, text)).toBeVisible();
  await expect(reply(reader.page, text)).toBeVisible();

  await reply(admin.page, text).getByRole('button', { name: 'Hide' }).click();
  for (const { page } of [writer, reader]) {
    await expect(reply(page, text)).toHaveCount(0);
    await expect(replies(page).filter({ hasText: 'Hidden by a moderator' })).toHaveCount(1);
  }
  // The admin still reads it, marked, and can restore it.
  const hidden = reply(admin.page, text);
  await expect(hidden.getByRole('button', { name: 'Restore' })).toBeVisible();
  // Its text never reached the members' devices.
  await waitSynced(reader.page);
  expect((await storedReplies(reader.page)).some((row) => row.content === text)).toBe(false);

  await hidden.getByRole('button', { name: 'Restore' }).click();
  await expect(reply(reader.page, text)).toBeVisible();
  await expect(reply(writer.page, text)).toBeVisible();
  for (const opened of [writer, reader, admin]) await opened.context.close();
});

test("the server refuses a reply to another member's pending post", async ({ browser }) => {
  const author = await device(browser, 'gus@example.com');
  const other = await device(browser, 'hal@example.com', TABLET);
  const created = await author.page.evaluate(async () => {
    const answer = await fetch('/api/ops', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-insight-protocol': '2' },
      body: JSON.stringify({
        ops: [
          {
            id: crypto.randomUUID(),
            type: 'create',
            post: { title: 'Pending of Gus', content: 'Waiting for review.', category: 'Trends' },
          },
        ],
      }),
    });
    return ((await answer.json()) as { results: { postId: number }[] }).results[0]!.postId;
  });
  const answer = await other.page.evaluate(async (postId) => {
    const response = await fetch('/api/ops', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-insight-protocol': '2' },
      body: JSON.stringify({ ops: [{ id: crypto.randomUUID(), type: 'reply', postId, content: 'Sneaking in.' }] }),
    });
    return (await response.json()) as { results: { status: string; code?: string }[] };
  }, created);
  expect(answer.results[0]).toMatchObject({ status: 'refused', code: 'not_found' });
  // Nor can the other member open it.
  await other.page.goto(`/posts/${created}`);
  await expect(other.page.getByRole('heading', { name: 'Post not available' })).toBeVisible();
  await expect(other.page.getByRole('link', { name: 'Back to the forum' })).toBeVisible();
  await author.context.close();
  await other.context.close();
});

test('a deep link to a post already on the device opens offline, replies included', async ({ browser }) => {
  const phone = await device(browser, 'ivy@example.com', PHONE, 'allow');
  await expect.poll(() => phone.page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 30_000 }).toBe(true);
  await expect
    .poll(() => phone.page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state), { timeout: 30_000 })
    .toBe('activated');
  const id = (await storedPosts(phone.page)).find((post) => post.title === SAMPLE)!.id;

  await phone.context.setOffline(true);
  const page = await phone.context.newPage();
  await page.goto(`/posts/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: SAMPLE })).toBeVisible();
  await expect(replies(page).first()).toBeVisible();
  await phone.context.close();
});
