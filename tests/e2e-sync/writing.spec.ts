// Writing across devices through the real server: the edit and resubmit loop (the admin rejects on
// a tablet, the author edits on a phone, the post comes back to the tablet's queue, marked
// Resubmitted); delete with Undo (undone: nothing changes anywhere; not undone: gone from every
// device and mirror); an offline delete is applied once; an edit that crossed a review is refused
// and its text kept; hostile Markdown written on one device renders inert on another.
import { expect, test, type Page } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import {
  PHONE,
  TABLET,
  card,
  mirroredPosts,
  type newDevice,
  sendOps as sendVersionedOps,
  signedInDevice,
  storedPosts,
  storedRows,
  waitSynced,
  type Device,
} from './support/devices';
import { HOSTILE_MARKDOWN } from '../e2e/support/hostile-markdown';

const ADMIN = 'admin@insightexchange.app';
const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';
const spec = serverForSpec(syncPort(14));

type Browser = Parameters<typeof newDevice>[0];

const device = (browser: Browser, email: string, viewport = PHONE): Promise<Device> =>
  signedInDevice(browser, spec.server, email, viewport);

/** Sends operations through the API as the page's member (version 3). */
const sendOps = (page: Page, ops: Record<string, unknown>[]) => sendVersionedOps(page, ops, 3);

/** Creates a post as the page's member through the API; returns its id. */
async function createPost(page: Page, title: string, content: string): Promise<number> {
  const answer = await sendOps(page, [{ type: 'create', post: { title, content, category: 'Trends' } }]);
  expect(answer.results[0]).toMatchObject({ status: 'applied' });
  return answer.results[0]!.postId!;
}

async function review(admin: Page, postId: number, type: 'approve' | 'reject'): Promise<void> {
  const answer = await sendOps(admin, [{ type, postId }]);
  expect(answer.results[0]).toMatchObject({ status: 'applied' });
}

interface Pulled {
  posts: { id: number; title: string; content: string; status: string }[];
  removed: { id: number; seq: number }[];
}

/** Everything a member's version-3 pull carries from the start. */
function pullAll(page: Page): Promise<Pulled> {
  return page.evaluate(async () => {
    const all: Pulled = { posts: [], removed: [] };
    let after = 0;
    for (;;) {
      const answer = await fetch(`/api/changes?after=${after}&limit=1000`, { headers: { 'x-insight-protocol': '3' } });
      const body = (await answer.json()) as Pulled & { cursor: number; more: boolean };
      all.posts.push(...body.posts);
      all.removed.push(...body.removed);
      after = body.cursor;
      if (!body.more) return all;
    }
  });
}

const toasts = (page: Page) => page.locator('.app-toasts');
const heading = (page: Page, title: string) => page.getByRole('heading', { level: 1, name: title });

async function openPost(page: Page, postId: number, title: string): Promise<void> {
  await page.goto(`/posts/${postId}`);
  await expect(heading(page, title)).toBeVisible();
}

/** Deletes the open post from its page: the button, then the confirmation. */
async function deleteOpenPost(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Delete', exact: true }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toasts(page).getByText('Post deleted')).toBeVisible();
}

test('the admin rejects on a tablet, the author edits on a phone, and the post comes back to the queue marked Resubmitted', async ({
  browser,
}) => {
  const phone = await device(browser, 'rita@example.com');
  const tablet = await device(browser, ADMIN, TABLET);
  const title = 'Conjoint with 40 attributes';
  const postId = await createPost(phone.page, title, 'Is it **too many**?');

  await tablet.page.goto('/admin');
  const queued = card(tablet.page, title);
  await expect(queued).toBeVisible();
  await queued.getByRole('button', { name: 'Reject' }).click();
  await expect(queued).toHaveCount(0);

  await phone.page.goto('/profile');
  const mine = card(phone.page, title);
  await expect(mine.getByText('Rejected')).toBeVisible();
  await mine.getByRole('button', { name: 'Edit' }).click();
  const dialog = phone.page.getByRole('dialog', { name: 'Edit Post' });
  await dialog.getByLabel('Content').fill('Cut to **12 attributes**, with a pilot of n=50.');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(mine.getByText('Pending')).toBeVisible();

  // Live on the tablet, which kept /admin open.
  await expect(queued).toBeVisible();
  await expect(queued.getByText('Resubmitted')).toBeVisible();
  await expect(queued).toContainText('Cut to 12 attributes');
  // Approving it ends the mark; the author sees it approved.
  await queued.getByRole('button', { name: 'Approve' }).click();
  await expect(mine.getByText('Approved')).toBeVisible();
  expect((await pullAll(phone.page)).posts.find((post) => post.id === postId)).toMatchObject({ status: 'approved' });
  await phone.context.close();
  await tablet.context.close();
});

test('a delete undone within 5 seconds changes nothing anywhere; one not undone leaves every device and mirror', async ({ browser }) => {
  const phone = await device(browser, 'sam@example.com');
  const tablet = await device(browser, 'tia@example.com', TABLET);
  const admin = await device(browser, ADMIN, TABLET);
  const title = 'Panel fatigue by wave';
  const postId = await createPost(phone.page, title, 'Completion drops after wave 4.');
  await review(admin.page, postId, 'approve');
  for (const { page } of [phone, tablet]) {
    await page.goto('/forum');
    await expect(card(page, title)).toBeVisible();
  }

  // Deleted, then undone: the tablet never loses it, and the server never hears of it.
  await openPost(phone.page, postId, title);
  await deleteOpenPost(phone.page);
  // Pressed on the button itself: on a phone the toast moves once the dialog has faded out.
  await toasts(phone.page).getByRole('button', { name: 'Undo' }).dispatchEvent('click');
  await expect(toasts(phone.page).getByText('Post restored')).toBeVisible();
  await waitSynced(phone.page);
  await expect(card(tablet.page, title)).toBeVisible();
  const afterUndo = await pullAll(tablet.page);
  expect(afterUndo.posts.some((post) => post.id === postId)).toBe(true);
  expect(afterUndo.removed.some((removed) => removed.id === postId)).toBe(false);
  expect((await storedPosts(phone.page)).some((post) => post.id === postId)).toBe(true);

  // Deleted for good: gone live from the tablet, from both devices' IndexedDB and mirrors.
  await openPost(phone.page, postId, title);
  await deleteOpenPost(phone.page);
  await expect(toasts(phone.page).getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await expect(card(tablet.page, title)).toHaveCount(0);
  for (const { page } of [phone, tablet]) {
    await waitSynced(page);
    await expect.poll(async () => (await storedPosts(page)).some((post) => post.id === postId)).toBe(false);
    await expect.poll(async () => (await mirroredPosts(page)).some((post) => post.id === postId)).toBe(false);
  }
  const pulled = await pullAll(admin.page);
  expect(pulled.posts.some((post) => post.id === postId)).toBe(false);
  expect(pulled.removed.filter((removed) => removed.id === postId)).toHaveLength(1);
  for (const opened of [phone, tablet, admin]) await opened.context.close();
});

test('a post deleted offline is deleted once when the network returns', async ({ browser }) => {
  const phone = await device(browser, 'uma@example.com');
  const tablet = await device(browser, 'vic@example.com', TABLET);
  const admin = await device(browser, ADMIN, TABLET);
  const title = 'MaxDiff on a train';
  const postId = await createPost(phone.page, title, 'Written before the tunnel.');
  await review(admin.page, postId, 'approve');
  await tablet.page.goto('/forum');
  await expect(card(tablet.page, title)).toBeVisible();
  await openPost(phone.page, postId, title);

  await phone.context.setOffline(true);
  await deleteOpenPost(phone.page);
  await expect(toasts(phone.page).getByRole('button', { name: 'Undo' })).toHaveCount(0);
  // Deleting from the post page went to the forum (this device has no service worker: no reload offline).
  await expect(phone.page).toHaveURL(/\/forum$/);
  await expect(card(phone.page, SAMPLE)).toBeVisible();
  await expect(card(phone.page, title)).toHaveCount(0);
  await expect(card(tablet.page, title)).toBeVisible();

  await phone.context.setOffline(false);
  await waitSynced(phone.page);
  await expect(card(tablet.page, title)).toHaveCount(0);
  await phone.page.reload();
  await waitSynced(phone.page);
  expect(await storedRows(phone.page, 'outbox')).toEqual([]);
  expect((await pullAll(admin.page)).removed.filter((removed) => removed.id === postId)).toHaveLength(1);
  for (const opened of [phone, tablet, admin]) await opened.context.close();
});

test('an edit that crossed a review is refused with a sentence, and its text is kept for the author', async ({ browser }) => {
  const phone = await device(browser, 'wes@example.com');
  const admin = await device(browser, ADMIN, TABLET);
  const title = 'Quota cells for 18-24';
  const postId = await createPost(phone.page, title, 'First version.');
  await openPost(phone.page, postId, title);

  // The author opens Edit, then loses the network (this device has no service worker to serve the
  // dialog's code offline).
  await phone.page.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = phone.page.getByRole('dialog', { name: 'Edit Post' });
  await expect(dialog.getByLabel('Content')).toHaveValue('First version.');
  await phone.context.setOffline(true);
  const edited = 'Second version, written offline while the admin approved the first.';
  await dialog.getByLabel('Content').fill(edited);
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  // The dialog fades out with the text still in its field: the page's copy is the one to see.
  await expect(dialog).toBeHidden();
  await expect(phone.page.getByText(edited)).toBeVisible();
  await review(admin.page, postId, 'approve');

  await phone.context.setOffline(false);
  await expect(toasts(phone.page).getByText(/reviewed this post while you were editing it/)).toBeVisible();
  await expect(phone.page.getByText('First version.')).toBeVisible();
  await phone.page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(phone.page.getByRole('dialog', { name: 'Edit Post' }).getByLabel('Content')).toHaveValue(edited);
  await phone.context.close();
  await admin.context.close();
});

test('hostile Markdown written on one device renders inert on another', async ({ browser }) => {
  test.setTimeout(240_000);
  const writer = await device(browser, 'xan@example.com');
  const admin = await device(browser, ADMIN, TABLET);
  const title = 'A thread of hostile inputs';
  const postId = await createPost(
    writer.page,
    title,
    HOSTILE_MARKDOWN.map((input) => input.source).find((source) => source.length <= 20_000)!,
  );
  await review(admin.page, postId, 'approve');
  const fitting = HOSTILE_MARKDOWN.map((input) => input.source).filter((source) => source.trim().length > 0 && source.length <= 10_000);
  expect(fitting.length).toBeGreaterThanOrEqual(55);
  const answer = await sendOps(
    writer.page,
    fitting.map((content) => ({ type: 'reply', postId, content })),
  );
  // Only text that cannot be stored (a NUL, a broken character) or that hides a character (a right-to-left
  // override, a zero width space: issue 59) is refused, with its sentence.
  const refused = answer.results.filter((result) => result.status !== 'applied');
  expect(refused.every((result) => result.status === 'refused' && result.code === 'invalid')).toBe(true);
  expect(refused.length).toBeLessThanOrEqual(3);

  const reader = await device(browser, 'yas@example.com', TABLET);
  const page = reader.page;
  const foreign: string[] = [];
  page.on('request', (request) => {
    const { hostname, protocol } = new URL(request.url());
    if (!['127.0.0.1', 'localhost'].includes(hostname) && protocol !== 'data:' && protocol !== 'blob:') foreign.push(request.url());
  });
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.addInitScript(() => {
    (window as unknown as { __xss?: unknown }).__xss = undefined;
  });
  const pages = Math.ceil((fitting.length - refused.length) / 20);
  for (let number = 1; number <= pages; number += 1) {
    await page.goto(`/posts/${postId}?page=${number}`);
    await expect(heading(page, title)).toBeVisible();
    const items = page.getByRole('list', { name: 'Replies' }).getByRole('listitem');
    await expect(items.first()).toBeVisible();
    const rendered = page.locator('.app-markdown');
    await expect(rendered.first()).toBeVisible();
    expect(await rendered.locator('script, iframe, img, svg, math, style, object, embed, form, input, base, meta, link').count()).toBe(0);
    const links = await rendered.locator('a').evaluateAll((anchors) =>
      anchors.map((anchor) => ({
        href: anchor.hasAttribute('href') ? (anchor as HTMLAnchorElement).href : '',
        rel: anchor.getAttribute('rel'),
        target: anchor.getAttribute('target'),
      })),
    );
    for (const link of links) {
      // Resolved as the browser follows it: only the web or mail, never a script.
      expect(link.href).toMatch(/^(https?:|mailto:|$)/i);
      expect(link.rel).toBe('nofollow ugc noopener noreferrer');
      expect(link.target).toBe('_blank');
    }
    const styled = await rendered.locator('[style], [onerror], [onload], [onclick], [onmouseover]').count();
    expect(styled).toBe(0);
  }
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss ?? null)).toBeNull();
  expect(dialogs).toEqual([]);
  expect(foreign).toEqual([]);
  for (const opened of [writer, admin, reader]) await opened.context.close();
});
