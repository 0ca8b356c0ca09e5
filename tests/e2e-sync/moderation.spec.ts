// Moderation across devices through the real server: a rejection's reason and the notifications
// that follow it (live, on both of the author's devices, read on one → read on the other); a bulk
// approval undone in time changes nothing anywhere, one not undone approves everything once; two
// admins bulk-reviewing overlapping sets review each post once and the loser hears which; flags are
// once per member, private, and hiding from the Flags queue hides everywhere; the Admin link's
// pending count follows on another admin device.
import { expect, test, type Page } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import {
  card,
  newDevice,
  passwordOf,
  PHONE,
  reachedServer,
  sendOps,
  signedInDevice,
  signIn,
  storedPosts,
  TABLET,
  type Device,
  waitSynced,
} from './support/devices';

const ADMIN = 'admin@insightexchange.app';
const spec = serverForSpec(syncPort(15));

type Browser = Parameters<typeof newDevice>[0];

const device = (browser: Browser, email: string, viewport = PHONE, path = '/forum'): Promise<Device> =>
  signedInDevice(browser, spec.server, email, viewport, path);

/** Creates posts as the page's member through the API; returns their ids in order. */
async function createPosts(page: Page, titles: string[]): Promise<number[]> {
  const answer = await sendOps(
    page,
    titles.map((title) => ({ type: 'create', post: { title, content: `About ${title}.`, category: 'Trends' } })),
  );
  expect(answer.results.every((result) => result.status === 'applied')).toBe(true);
  return answer.results.map((result) => result.postId!);
}

interface Pulled {
  posts: { id: number; title: string; status: string; reason: string | null }[];
  notifications: { id: string; kind: string; postId: number; readAt: number | null; reason: string | null }[];
  flags: { id: string; postId: number; replyId: string | null; flaggerEmail: string; state: string }[];
}

/** Everything a member's version-4 pull carries from the start (the latest row of each id). */
function pullAll(page: Page): Promise<Pulled> {
  return page.evaluate(async () => {
    const latest = <T extends { id: number | string }>(rows: T[]): T[] => [...new Map(rows.map((row) => [row.id, row])).values()];
    const all: Pulled = { posts: [], notifications: [], flags: [] };
    let after = 0;
    for (;;) {
      const answer = await fetch(`/api/changes?after=${after}&limit=1000`, { headers: { 'x-insight-protocol': '4' } });
      const body = (await answer.json()) as Pulled & { cursor: number; more: boolean };
      all.posts.push(...body.posts);
      all.notifications.push(...body.notifications);
      all.flags.push(...body.flags);
      after = body.cursor;
      if (!body.more) return { posts: latest(all.posts), notifications: latest(all.notifications), flags: latest(all.flags) };
    }
  });
}

const toasts = (page: Page) => page.locator('.app-toasts');
const bell = (page: Page) => page.getByRole('button', { name: 'Notifications', exact: true });
// The header's link (an author named Admin links to their page too).
const adminLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true });
const unread = (count: number) => (count === 0 ? 'No unread notifications' : `${count} unread notification${count === 1 ? '' : 's'}`);

test('a reason given on the tablet reaches the author’s phone; approval notifies both of the author’s devices; read on one is read on the other', async ({
  browser,
}) => {
  const phone = await device(browser, 'nora@example.com');
  const laptop = await device(browser, 'nora@example.com', { width: 1280, height: 900 });
  const tablet = await device(browser, ADMIN, TABLET, '/admin');
  const title = 'Sample boost for Gen Z';
  await createPosts(phone.page, [title]);

  const queued = card(tablet.page, title);
  await expect(queued).toBeVisible();
  await queued.getByLabel('Reason').fill('Please add the sample size and the field dates.');
  await queued.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(queued).toHaveCount(0);

  // Live on the phone: the bell counts it, the notification carries the reason, Profile shows it.
  await expect(bell(phone.page)).toHaveAccessibleDescription(unread(1));
  await expect(bell(laptop.page)).toHaveAccessibleDescription(unread(1));
  await phone.page.goto('/profile');
  const mine = card(phone.page, title);
  await expect(mine.getByText('Rejected')).toBeVisible();
  await expect(mine.getByText('Please add the sample size and the field dates.')).toBeVisible();
  await phone.page.goto('/notifications');
  await expect(phone.page.getByText(`Your post “${title}” was rejected`)).toBeVisible();
  await expect(phone.page.getByText('Please add the sample size and the field dates.')).toBeVisible();

  // The author resubmits from the phone; the tablet's queue gets it back; approval notifies again.
  await phone.page.goto('/profile');
  await mine.getByRole('button', { name: 'Edit' }).click();
  const dialog = phone.page.getByRole('dialog', { name: 'Edit Post' });
  await dialog.getByLabel('Content').fill('n=1,200, fielded 3–14 March.');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(mine.getByText('Pending')).toBeVisible();
  await expect(mine.getByText('Please add the sample size and the field dates.')).toHaveCount(0);
  await expect(queued).toBeVisible();
  await queued.getByRole('button', { name: 'Approve', exact: true }).click();

  for (const page of [phone.page, laptop.page]) await expect(bell(page)).toHaveAccessibleDescription(unread(2));
  await phone.page.goto('/notifications');
  await expect(phone.page.getByText(`Your post “${title}” was approved`)).toBeVisible();
  await phone.page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell(phone.page)).toHaveAccessibleDescription(unread(0));
  // Read on the phone: read on the laptop, live.
  await expect(bell(laptop.page)).toHaveAccessibleDescription(unread(0));
  expect((await pullAll(laptop.page)).notifications.every((n) => n.readAt !== null)).toBe(true);
  for (const opened of [phone, laptop, tablet]) await opened.context.close();
});

test('opening Profile after a review elsewhere says it is catching up until the news arrives (issue 40)', async ({ browser }) => {
  const phone = await device(browser, 'opal@example.com');
  const title = 'Coding frames for open ends';
  const [id] = await createPosts(phone.page, [title]);
  await phone.page.goto('/profile');
  await expect(card(phone.page, title).getByText('Pending')).toBeVisible();
  // The phone's next pulls wait (a slow network) while the admin approves on another device.
  let release = () => undefined as void;
  let held = new Promise<void>((resolve) => (release = resolve));
  let firstPull = 0;
  await phone.page.route('**/api/changes**', async (route) => {
    firstPull ||= Date.now();
    await held;
    await route.continue();
  });
  const tablet = await device(browser, ADMIN, TABLET, '/admin');
  await card(tablet.page, title).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(card(tablet.page, title)).toHaveCount(0);
  await expect.poll(async () => (await pullAll(tablet.page)).posts.find((post) => post.id === id)?.status).toBe('approved');

  // The catch-up starts with the app, not after the start-up work that waits 3 s for a list Profile
  // never shows (it began 3.2 s after the page's start before issue 40). Shown without a clock: the
  // page's timers are held still from before the reload, so nothing that waits on one can run, and
  // the first pull must come anyway. (A bound in milliseconds from DOMContentLoaded, 3 s, failed on a
  // loaded machine at 3.8 s: about 1 s on a quiet one is the chunks' download and evaluation.)
  await phone.page.clock.install();
  await phone.page.clock.pauseAt(new Date(Date.now() + 60_000));
  // (The old page's pull is still held, so its sync, in flight, asks for nothing more meanwhile.)
  firstPull = 0;
  await phone.page.reload();
  await expect
    .poll(() => firstPull, { message: 'the first pull after the reload, with every timer held', timeout: 30_000 })
    .toBeGreaterThan(0);
  await phone.page.clock.resume();
  const catchingUp = phone.page.getByRole('status').filter({ hasText: 'Catching up with the server…' }).first();
  await expect(catchingUp).toBeVisible();
  await expect(card(phone.page, title).getByText('Pending')).toBeVisible();
  release();
  await expect(card(phone.page, title).getByText('Approved')).toBeVisible();
  await expect(phone.page.getByText('Catching up with the server…')).toHaveCount(0);

  // Notifications says so too, and shows the news once it is in.
  held = new Promise<void>((resolve) => (release = resolve));
  await phone.page.goto('/notifications');
  await expect(phone.page.getByRole('status').filter({ hasText: 'Catching up with the server…' }).first()).toBeVisible();
  release();
  await expect(phone.page.getByText(`Your post “${title}” was approved`)).toBeVisible();
  await expect(phone.page.getByText('Catching up with the server…')).toHaveCount(0);
  for (const opened of [phone, tablet]) await opened.context.close();
});

test('a bulk approval of 20 undone within 5 s changes nothing anywhere; without Undo all 20 are approved everywhere and each author is notified once', async ({
  browser,
}) => {
  const authors = await Promise.all(['ola@example.com', 'pia@example.com'].map((email) => device(browser, email)));
  const titles = Array.from({ length: 20 }, (_, index) => `Bulk study ${String(index + 1).padStart(2, '0')}`);
  const ids = [...(await createPosts(authors[0]!.page, titles.slice(0, 10))), ...(await createPosts(authors[1]!.page, titles.slice(10)))];
  const tablet = await device(browser, ADMIN, TABLET, '/admin');
  const watcher = await device(browser, ADMIN, TABLET, '/admin');
  for (const page of [tablet.page, watcher.page]) await expect(card(page, titles[0]!)).toBeVisible();

  const selectAll = async () => {
    await tablet.page.getByRole('button', { name: 'Select all shown' }).click();
    for (const title of titles) await expect(card(tablet.page, title).getByRole('checkbox', { name: 'Select' })).toBeChecked();
  };

  // Undone within the window: the server never hears of it, the other tablet keeps its queue.
  await selectAll();
  await tablet.page.getByRole('button', { name: /^Approve selected/ }).click();
  await expect(card(tablet.page, titles[0]!)).toHaveCount(0);
  // The toast is still sliding in when it appears (Playwright retried "not stable" three times in a
  // CI run, and its click then missed: the approvals went out); the press goes to the button itself.
  await toasts(tablet.page).getByRole('button', { name: 'Undo' }).dispatchEvent('click');
  await expect(toasts(tablet.page).getByText('Review undone')).toBeVisible();
  for (const title of titles) await expect(card(tablet.page, title)).toBeVisible();
  await waitSynced(tablet.page);
  const untouched = await pullAll(watcher.page);
  expect(ids.map((id) => untouched.posts.find((post) => post.id === id)?.status)).toEqual(ids.map(() => 'pending'));
  expect(untouched.notifications).toEqual([]);
  for (const title of titles) await expect(card(watcher.page, title)).toBeVisible();

  // Not undone: every device sees all 20 approved; each post's author gets exactly one notification.
  await selectAll();
  await tablet.page.getByRole('button', { name: /^Approve selected/ }).click();
  for (const title of titles) await expect(card(watcher.page, title)).toHaveCount(0);
  for (const [index, author] of authors.entries()) {
    await expect(bell(author.page)).toHaveAccessibleDescription(unread(10));
    const pulled = await pullAll(author.page);
    const mine = ids.slice(index * 10, index * 10 + 10);
    expect(pulled.notifications.map((n) => n.postId).sort()).toEqual([...mine].sort());
    expect(pulled.notifications.every((n) => n.kind === 'approved')).toBe(true);
    expect(mine.map((id) => pulled.posts.find((post) => post.id === id)?.status)).toEqual(mine.map(() => 'approved'));
  }
  await waitSynced(watcher.page);
  const stored = await storedPosts(watcher.page);
  expect(ids.map((id) => stored.find((post) => post.id === id)?.status)).toEqual(ids.map(() => 'approved'));
  for (const opened of [...authors, tablet, watcher]) await opened.context.close();
});

test('two admins bulk-reviewing overlapping sets: each post is reviewed once, and the later one is told which were already reviewed', async ({
  browser,
}) => {
  const author = await device(browser, 'quinn@example.com');
  const titles = Array.from({ length: 8 }, (_, index) => `Overlap case ${index + 1}`);
  const ids = await createPosts(author.page, titles);
  const first = await device(browser, ADMIN, TABLET, '/admin');
  const second = await device(browser, ADMIN, TABLET, '/admin');
  for (const page of [first.page, second.page]) await expect(card(page, titles[7]!)).toBeVisible();

  const choose = async (page: Page, chosen: string[]) => {
    for (const title of chosen) await card(page, title).getByRole('checkbox', { name: 'Select' }).check();
  };
  // The first tablet approves 1–5; the second rejects 4–8 before the first's reviews reach it: it
  // is offline meanwhile (online, the first's approvals could arrive live before its click, and 4–5
  // would leave its queue: a CI run met that), and sends its reviews once it is back.
  await choose(first.page, titles.slice(0, 5));
  await choose(second.page, titles.slice(3));
  await second.context.setOffline(true);
  await first.page.getByRole('button', { name: /^Approve selected/ }).click();
  await expect(card(first.page, titles[0]!)).toHaveCount(0);
  // The approvals are on the server before the second tablet reviews: they are held for Undo (5 s),
  // and "Synced" can still show a moment after the click, before the waiting count is read (a CI
  // run saw the second's rejections reach the server first).
  const statusOf = async () => {
    const pulled = await pullAll(author.page);
    return ids.map((id) => pulled.posts.find((post) => post.id === id)?.status);
  };
  await expect.poll(statusOf).toEqual([...ids.slice(0, 5).map(() => 'approved'), 'pending', 'pending', 'pending']);
  await second.page.getByRole('button', { name: /^Reject selected/ }).click();
  await expect(card(second.page, titles[7]!)).toHaveCount(0);
  await second.context.setOffline(false);

  // The second tablet says which of its posts another admin had reviewed first.
  const notice = toasts(second.page).getByRole('alert').filter({ hasText: 'Already reviewed' });
  await expect(notice).toBeVisible();
  // Held while it is read, as a pointer over it holds it (it had gone by the next check in one run).
  await notice.dispatchEvent('pointerover');
  for (const title of titles.slice(3, 5)) await expect(notice).toContainText(title);
  await expect(notice).not.toContainText(titles[5]!);

  await waitSynced(first.page);
  await waitSynced(second.page);
  const pulled = await pullAll(author.page);
  expect(ids.map((id) => pulled.posts.find((post) => post.id === id)?.status)).toEqual([
    'approved',
    'approved',
    'approved',
    'approved',
    'approved',
    'rejected',
    'rejected',
    'rejected',
  ]);
  // One review each: one notification per post.
  expect(pulled.notifications.map((n) => n.postId).sort()).toEqual([...ids].sort());
  // Each tablet comes to hold the server's outcome. "Synced" on the first may show a moment before
  // the live news of the second's rejections arrives (a CI run checked in between): wait for it.
  const onServer = ids.map((id) => pulled.posts.find((p) => p.id === id)?.status);
  for (const [name, page] of [
    ['first', first.page],
    ['second', second.page],
  ] as const) {
    await expect
      .poll(
        async () => {
          const stored = await storedPosts(page);
          return ids.map((id) => stored.find((post) => post.id === id)?.status);
        },
        { message: `the ${name} tablet holds the server's outcome`, timeout: 30_000 },
      )
      .toEqual(onServer);
  }
  for (const opened of [author, first, second]) await opened.context.close();
});

test('flags: once per member, private to the flagger and admins; hiding from the Flags queue hides everywhere; the pending count follows on another admin device', async ({
  browser,
}) => {
  const author = await device(browser, 'rosa@example.com');
  const flagger = await device(browser, 'sven@example.com');
  const other = await device(browser, 'tove@example.com');
  const tablet = await device(browser, ADMIN, TABLET, '/admin');
  const watcher = await device(browser, ADMIN, { width: 1280, height: 900 });
  const title = 'Buy followers cheap';
  const before = await pullAll(tablet.page);
  const pending = before.posts.filter((post) => post.status === 'pending').length;
  const [postId] = await createPosts(author.page, [title]);

  // The other admin device's Admin link counts the new post, live.
  await expect(adminLink(watcher.page)).toHaveAccessibleDescription(
    `${pending + 1} post${pending + 1 === 1 ? '' : 's'} waiting for review`,
  );
  await card(tablet.page, title).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(adminLink(watcher.page)).toHaveAccessibleDescription(
    pending === 0 ? 'No posts waiting for review' : `${pending} post${pending === 1 ? '' : 's'} waiting for review`,
  );

  // A member flags it once; the button then says so, and the server refuses a second flag.
  await flagger.page.goto(`/posts/${postId}`);
  await flagger.page.getByRole('button', { name: 'Flag', exact: true }).first().click();
  const dialog = flagger.page.getByRole('dialog', { name: 'Flag' });
  await dialog.getByLabel('Spam').check();
  await dialog.getByRole('button', { name: /flag/i }).last().click();
  await expect(flagger.page.getByRole('button', { name: 'Flagged' }).first()).toBeDisabled();
  await reachedServer(flagger.page);
  const again = await sendOps(flagger.page, [{ type: 'flag', postId, replyId: null, reason: 'spam' }]);
  expect(again.results[0]).toMatchObject({ status: 'refused', code: 'already_flagged' });
  await sendOps(other.page, [{ type: 'flag', postId, replyId: null, reason: 'other', text: 'Looks like an advert.' }]);

  // Each member sees only their own flag; the author sees none.
  expect((await pullAll(flagger.page)).flags.map((flag) => flag.flaggerEmail)).toEqual(['sven@example.com']);
  expect((await pullAll(other.page)).flags.map((flag) => flag.flaggerEmail)).toEqual(['tove@example.com']);
  expect((await pullAll(author.page)).flags).toEqual([]);

  // The admin hides it from the Flags queue: gone from every member's forum, the author notified.
  for (const page of [author.page, other.page]) {
    await page.goto('/forum');
    await expect(card(page, title)).toBeVisible();
  }
  await tablet.page.getByRole('tab', { name: 'Flags', exact: true }).click();
  const flagged = tablet.page.getByRole('article').filter({ hasText: title });
  await expect(flagged).toContainText('Looks like an advert.');
  await flagged.getByRole('button', { name: 'Hide', exact: true }).click();
  await expect(flagged).toHaveCount(0);
  for (const page of [other.page, flagger.page]) await expect(card(page, title)).toHaveCount(0);
  await expect(bell(author.page)).toHaveAccessibleDescription(unread(2));
  expect((await pullAll(tablet.page)).flags.filter((flag) => flag.postId === postId).map((flag) => flag.state)).toEqual([
    'resolved',
    'resolved',
  ]);
  for (const opened of [author, flagger, other, tablet, watcher]) await opened.context.close();
});

test('with system notifications turned on, a notification that arrives while the app is in the background is shown by the service worker', async ({
  browser,
}) => {
  const opened = await newDevice(browser, spec.server, PHONE, 'allow');
  await opened.context.grantPermissions(['notifications'], { origin: spec.server.url });
  const { page } = opened;
  await signIn(page, 'uma@example.com', passwordOf('uma@example.com'));
  await page.goto('/notifications');
  await waitSynced(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Never asked on load: only the button turns them on.
  await page.getByRole('button', { name: 'Turn on system notifications' }).click();
  await expect(page.getByRole('button', { name: 'Turn off system notifications' })).toBeVisible();
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body })),
    );
  expect(await shown()).toEqual([]);

  const title = 'Diary study incentives';
  const [postId] = await createPosts(page, [title]);
  // The app goes to the background (as when the member switches apps).
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const tablet = await device(browser, ADMIN, TABLET, '/admin');
  const queued = card(tablet.page, title);
  await queued.getByLabel('Reason').fill('Say how much each incentive was.');
  await queued.getByRole('button', { name: 'Reject', exact: true }).click();

  await expect.poll(shown).toEqual([{ title: `Your post “${title}” was rejected`, body: 'Reason: Say how much each incentive was.' }]);
  const data = await page.evaluate(
    async () => (await (await navigator.serviceWorker.ready).getNotifications())[0]!.data as { url: string },
  );
  expect(data.url).toBe(`/posts/${postId}`);
  for (const device of [opened, tablet]) await device.context.close();
});

test('an admin approves and presses Log out at once: the approval is sent first, and the author’s phone sees it (issue 59, item 1)', async ({
  browser,
}) => {
  const author = 'quick.exit.author@example.com';
  const phone = await device(browser, author);
  const tablet = await device(browser, ADMIN, TABLET, '/admin');
  await createPosts(phone.page, ['Approved on the way out']);
  const pending = card(tablet.page, 'Approved on the way out');
  await pending.getByRole('button', { name: 'Approve' }).click();
  // Written on the tablet (its toast), and Log out pressed at once, before any sync was waited for.
  await expect(toasts(tablet.page).getByRole('status').filter({ hasText: 'Post approved' })).toBeVisible();
  await tablet.page.getByRole('button', { name: 'Log out' }).click();
  await expect(tablet.page).toHaveURL(/\/login/);
  await expect(toasts(tablet.page).getByText('Logged Out', { exact: true })).toBeVisible();
  await expect(tablet.page.getByRole('dialog', { name: 'Changes not sent yet' })).toHaveCount(0);
  await expect
    .poll(async () => (await storedPosts(phone.page)).find((post) => post.title === 'Approved on the way out')?.status)
    .toBe('approved');
  await phone.context.close();
  await tablet.context.close();
});

test('an admin approves a post the instant it arrives: “Post approved” every time, never an error (issue 59, item 2)', async ({
  browser,
}) => {
  const tablet = await device(browser, ADMIN, TABLET, '/admin');
  const phone = await device(browser, 'instant.author@example.com');
  const told = toasts(tablet.page);
  const titles = ['Arrived note one', 'Arrived note two', 'Arrived note three'];
  for (const title of titles) {
    await createPosts(phone.page, [title]);
    // Pressed as soon as the live stream shows it in the queue.
    await card(tablet.page, title).getByRole('button', { name: 'Approve' }).click();
    await expect(told.getByRole('status').filter({ hasText: 'Post approved' })).toBeVisible();
    await expect(told.getByRole('alert')).toBeEmpty();
    await expect(card(tablet.page, title)).toHaveCount(0);
    // Dismissed, so the next pass's "Post approved" is its own, not this one still showing.
    await told.getByRole('button', { name: 'Dismiss notification' }).click();
    await expect(told.getByRole('status').filter({ hasText: 'Post approved' })).toHaveCount(0);
  }
  // Approved on the server: the author's phone holds them approved.
  await expect
    .poll(async () => (await storedPosts(phone.page)).filter((post) => titles.includes(post.title) && post.status === 'approved').length, {
      timeout: 30_000,
    })
    .toBe(3);
  await phone.context.close();
  await tablet.context.close();
});
