// Following across devices (issue 62): one member on a phone and a tablet, the admin writing. A
// post watched on the phone tells the phone of a reply written on the tablet; a category muted on
// the tablet leaves the phone's forum; "N new" on the phone clears live when the tablet reads the
// thread, and reading offline counts at once and reaches the other device when back online.
// State the screens do not show is set up through the API (sendOps, protocol 8).
import { expect, test, type Page } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { PHONE, TABLET, card, sendOps, signedInDevice, waitSynced } from './support/devices';
import { publish } from './support/member-actions';

const spec = serverForSpec(syncPort(49));
const ADMIN = 'admin@insightexchange.app';
// One member per case: the levels one case sets (a muted category) must not reach another.
const WATCHER = 'fern.follower@example.com';
const MUTER = 'mona.muter@example.com';
const READER = 'rhea.reader@example.com';
const OPENER = 'otto.opener@example.com';
const PROTOCOL = 8;

/** Sends operations as the page's member (protocol 8 knows follow and readPost) and expects each applied. */
async function applied(page: Page, ops: Record<string, unknown>[]): Promise<void> {
  const answer = await sendOps(page, ops, PROTOCOL);
  expect(answer.results.map((result) => result.status)).toEqual(ops.map(() => 'applied'));
}

/** Chooses a level in the "Follow" menu and waits for its description to say it. */
async function follow(page: Page, level: 'Watching' | 'Normal' | 'Muted'): Promise<void> {
  const menu = page.getByRole('button', { name: 'Follow', exact: true });
  await menu.click();
  await page.getByRole('menuitemradio', { name: new RegExp(`^${level}`) }).click();
  await expect(menu).toHaveAccessibleDescription(level);
}

test('watching a post on the phone: a reply written on the tablet notifies the phone', async ({ browser }) => {
  const admin = await signedInDevice(browser, spec.server, ADMIN, TABLET);
  const [postId] = await publish(admin.page, ['Panel fatigue in 2026']);
  const phone = await signedInDevice(browser, spec.server, WATCHER, PHONE, `/posts/${postId}`);
  await follow(phone.page, 'Watching');
  await waitSynced(phone.page);
  await phone.page.goto('/notifications');
  await applied(admin.page, [{ type: 'reply', postId, content: 'We saw it too.' }]);
  await expect(phone.page.getByRole('link', { name: /replied in “Panel fatigue in 2026”/ })).toBeVisible();
  for (const device of [admin, phone]) await device.context.close();
});

test('a reply that arrives while its post is open on the phone is read there: the bell does not count it', async ({ browser }) => {
  const admin = await signedInDevice(browser, spec.server, ADMIN, TABLET);
  const [postId] = await publish(admin.page, ['Diary study dropouts']);
  const phone = await signedInDevice(browser, spec.server, OPENER, PHONE, `/posts/${postId}`);
  await follow(phone.page, 'Watching');
  await waitSynced(phone.page);
  const bell = phone.page.getByRole('button', { name: 'Notifications', exact: true });
  await expect(bell).toHaveAccessibleDescription('No unread notifications');
  await applied(admin.page, [{ type: 'reply', postId, content: 'Incentives halfway through helped us.' }]);
  await expect(phone.page.getByRole('list', { name: 'Replies' }).getByText('Incentives halfway through helped us.')).toBeVisible({
    timeout: 30_000,
  });
  // The notification came, and was read on the open page (not left for the bell).
  await expect(bell).toHaveAccessibleDescription('No unread notifications', { timeout: 30_000 });
  await phone.page.goto('/notifications');
  const item = phone.page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first();
  await expect(item.getByRole('link', { name: /replied in “Diary study dropouts”/ })).toBeVisible();
  await expect(item).not.toContainText('Unread');
  for (const device of [admin, phone]) await device.context.close();
});

test('a category muted on the tablet leaves the phone’s forum, and comes back at its own view', async ({ browser }) => {
  const admin = await signedInDevice(browser, spec.server, ADMIN, TABLET);
  await publish(admin.page, ['A trend to mute']);
  const phone = await signedInDevice(browser, spec.server, MUTER, PHONE);
  const tablet = await signedInDevice(browser, spec.server, MUTER, TABLET, '/forum?category=Trends');
  await expect(card(phone.page, 'A trend to mute')).toBeVisible();
  await follow(tablet.page, 'Muted');
  await waitSynced(tablet.page);
  await expect(card(phone.page, 'A trend to mute')).toHaveCount(0);
  await phone.page.goto('/forum?category=Trends');
  await expect(card(phone.page, 'A trend to mute')).toBeVisible();
  for (const device of [admin, phone, tablet]) await device.context.close();
});

test('"N new" clears on the phone when the tablet reads the thread; reading offline counts at once and converges', async ({ browser }) => {
  const admin = await signedInDevice(browser, spec.server, ADMIN, TABLET);
  const [first, second] = await publish(admin.page, ['Read on the tablet', 'Read offline']);
  const phone = await signedInDevice(browser, spec.server, READER, PHONE);
  // The member has read both posts, none of their replies; then three replies come to each.
  await applied(phone.page, [
    { type: 'readPost', postId: first, readTo: 0 },
    { type: 'readPost', postId: second, readTo: 0 },
  ]);
  await applied(
    admin.page,
    [first, second].flatMap((postId) => [1, 2, 3].map((n) => ({ type: 'reply', postId, content: `Reply ${n}.` }))),
  );
  const tablet = await signedInDevice(browser, spec.server, READER, TABLET);
  for (const title of ['Read on the tablet', 'Read offline']) {
    await expect(card(phone.page, title).getByText('3 new')).toBeVisible();
    await expect(card(tablet.page, title).getByText('3 new')).toBeVisible();
  }

  // The tablet opens the first post: the divider stands before its first reply; the phone's count clears live.
  await tablet.page.goto(`/posts/${first}`);
  await expect(tablet.page.getByRole('separator', { name: 'New replies' })).toBeVisible();
  await expect(card(phone.page, 'Read on the tablet').getByText(/new$/)).toHaveCount(0);

  // The phone, offline, reads the second post (the post page's code loaded first, as service workers
  // are off here): its own count clears at once; the tablet's once it is back.
  await phone.page.goto(`/posts/${first}`);
  await phone.page.getByRole('link', { name: 'Back to the forum' }).click();
  await phone.context.setOffline(true);
  await card(phone.page, 'Read offline').getByRole('link', { name: 'Read offline' }).click();
  await expect(phone.page.getByRole('list', { name: 'Replies' })).toContainText('Reply 3.');
  await phone.page.getByRole('link', { name: 'Back to the forum' }).click();
  await expect(card(phone.page, 'Read offline')).toBeVisible();
  await expect(card(phone.page, 'Read offline').getByText(/new$/)).toHaveCount(0);
  await tablet.page.goto('/forum');
  await expect(card(tablet.page, 'Read offline').getByText('3 new')).toBeVisible();
  await phone.context.setOffline(false);
  await expect(card(tablet.page, 'Read offline').getByText(/new$/)).toHaveCount(0);
  for (const device of [admin, phone, tablet]) await device.context.close();
});
