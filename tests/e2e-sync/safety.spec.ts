// Safe with strangers (issue 39), across devices through the real server: a member suspended on the
// admin's tablet is signed out of their phone live and told why and until when; a silenced member
// reads but their reply is refused with a banner saying why, their text kept; a reply queued offline
// before the silence is refused when sent and kept as a draft; a spammer deleted on
// the tablet leaves the phone live; a device never stores another member's email; "Admin" is the
// staff's name; the admin's badge shows on a member's phone.
import { expect, test, type Page } from '@playwright/test';
import { expectHeaderInOneRow, expectStatusWhole } from '../e2e/support/header';
import { serverForSpec, syncPort } from './support/server';
import {
  card,
  mirroredPosts,
  newDevice,
  passwordOf,
  PHONE,
  reachedServer,
  sendOps,
  signedInDevice,
  storedRows,
  TABLET,
  waitSynced,
} from './support/devices';

const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';
const ADMIN = 'admin@insightexchange.app';
const spec = serverForSpec(syncPort(16));

const toasts = (page: Page) => page.locator('.app-toasts');

/** The admin's Members tab, the member found by their email and their card returned. */
async function memberCard(page: Page, email: string, name: string) {
  await page.goto('/admin?tab=members');
  await page.getByLabel('Find a member').fill(email);
  const found = page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) });
  await expect(found).toHaveCount(1);
  return found;
}

/** A day `days` from today, as the date field takes it (YYYY-MM-DD). */
const dayFromNow = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

async function openSample(page: Page): Promise<void> {
  await page.goto('/forum');
  await card(page, SAMPLE).getByRole('link', { name: SAMPLE }).click();
  await expect(page.getByRole('heading', { level: 1, name: SAMPLE })).toBeVisible();
}
const replies = (page: Page) => page.getByRole('list', { name: 'Replies' }).getByRole('listitem');

test('a member suspended on the tablet is signed out of their phone live, told why and until when; lifted, they sign in again', async ({
  browser,
}) => {
  const member = 'suspended.one@example.com';
  const phone = await signedInDevice(browser, spec.server, member, PHONE, '/forum');
  const tablet = await signedInDevice(browser, spec.server, ADMIN, TABLET, '/admin');

  const row = await memberCard(tablet.page, member, 'Suspended One');
  await row.getByRole('button', { name: 'Suspend' }).click();
  const dialog = tablet.page.getByRole('dialog', { name: 'Suspend Suspended One' });
  await dialog.getByLabel('Until').fill(dayFromNow(3));
  await dialog.getByLabel('Reason').fill('Links to a casino in every reply');
  await dialog.getByRole('button', { name: 'Suspend', exact: true }).click();
  await expect(toasts(tablet.page).getByText('Member suspended')).toBeVisible();
  await expect(row.getByText(/^Suspended until/)).toBeVisible();

  // The phone hears it on its live stream: signed out, with the reason and the end (the last day picked,
  // in the reader's time zone), said once (issue 59).
  await expect(phone.page).toHaveURL(/\/login/);
  await expect(phone.page.getByRole('main').getByRole('status')).toContainText(
    /Your account is suspended until \d{1,2} [A-Z][a-z]{2} \d{4}, 23:59\. Reason: Links to a casino in every reply/,
  );
  await expect(toasts(phone.page).getByText(/Your account is suspended/)).toHaveCount(0);
  // Signing in again says the same, and signs nobody in.
  await phone.page.getByLabel('Email').fill(member);
  await phone.page.getByLabel('Password').fill(passwordOf(member));
  await phone.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(
    toasts(phone.page)
      .getByText(/Your account is suspended until/)
      .last(),
  ).toBeVisible();
  await expect(phone.page).toHaveURL(/\/login/);

  // Lifted on the tablet: the member signs in.
  await row.getByRole('button', { name: 'Lift suspension' }).click();
  await expect(toasts(tablet.page).getByText('Suspension lifted')).toBeVisible();
  await reachedServer(tablet.page); // the lift has reached the server
  await phone.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toasts(phone.page).getByText('Logged in successfully!')).toBeVisible();
  // The staff log keeps both, with the reason.
  await tablet.page.goto('/admin/log');
  await expect(tablet.page.getByRole('heading', { level: 1, name: 'Staff log' })).toBeVisible();
  await expect(tablet.page.getByText('Links to a casino in every reply').first()).toBeVisible();
  await phone.context.close();
  await tablet.context.close();
});

test('a silenced member reads, but a reply is refused with the reason and their text stays; unsilenced, it is sent', async ({
  browser,
}) => {
  const member = 'quiet.one@example.com';
  const phone = await signedInDevice(browser, spec.server, member, PHONE, '/forum');
  const tablet = await signedInDevice(browser, spec.server, ADMIN, TABLET, '/admin');
  // The admin's tablet header, with its sync status, is one row at 820 px (issue 59, item 7), the
  // status's words whole; so it is at 1,000 px, where the brand shows its name and it once wrapped.
  await expectHeaderInOneRow(tablet.page);
  await expectStatusWhole(tablet.page);
  await tablet.page.setViewportSize({ width: 1000, height: 900 });
  await expectHeaderInOneRow(tablet.page);
  await expectStatusWhole(tablet.page);
  // And with the longest words it says: offline with changes waiting (they once wrapped it at 1,000 px).
  await tablet.page.getByRole('banner').getByRole('link', { name: 'Forum', exact: true }).click();
  await tablet.context.setOffline(true);
  const like = card(tablet.page, SAMPLE).getByRole('button', { name: /^Like/ });
  await like.click();
  await like.click();
  const status = tablet.page.getByRole('status', { name: 'Sync status: Offline, 2 changes waiting' });
  // With Install beside it too (the browser offering it: a trial saw "Syn…" at 820 px then).
  await tablet.page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt'), {
      prompt: async () => undefined,
      userChoice: Promise.resolve({ outcome: 'dismissed' }),
    });
    window.dispatchEvent(offer);
  });
  await expect(tablet.page.getByRole('banner').getByRole('button', { name: /Install/ })).toBeVisible();
  for (const width of [768, TABLET.width, 1000, 1200, 1280, 1400]) {
    await tablet.page.setViewportSize({ width, height: 900 });
    await expect(status, `at ${width} px`).toBeVisible();
    await expectHeaderInOneRow(tablet.page);
    await expectStatusWhole(tablet.page);
  }
  await tablet.context.setOffline(false);
  await waitSynced(tablet.page);
  await tablet.page.setViewportSize(TABLET);
  const row = await memberCard(tablet.page, member, 'Quiet One');
  // Confirmed as Suspend is, with a reason and an end date (issue 59, item 7).
  await row.getByRole('button', { name: 'Silence' }).click();
  const dialog = tablet.page.getByRole('dialog', { name: 'Silence Quiet One' });
  await dialog.getByLabel('Until (optional)').fill(dayFromNow(2));
  await dialog.getByLabel('Reason').fill('Heated replies');
  await dialog.getByRole('button', { name: 'Silence', exact: true }).click();
  await expect(toasts(tablet.page).getByText('Member silenced')).toBeVisible();
  await expect(row.getByText(/^Silenced until \d{1,2} [A-Z][a-z]{2} \d{4}, 23:59$/)).toBeVisible();

  // Live on the phone: a banner on every screen says why and until when, in place of New Post.
  const banner = phone.page.getByRole('status').filter({ hasText: 'Account silenced.' });
  await expect(banner).toContainText(/It ends \d{1,2} [A-Z][a-z]{2} \d{4}, 23:59\. Reason: Heated replies/);
  await expect(phone.page.getByRole('button', { name: 'New Post' })).toHaveCount(0);
  await openSample(phone.page);
  await expect(phone.page.getByRole('status').filter({ hasText: 'Account silenced.' })).toBeVisible();
  const text = 'We weight to the census, then trim at five.';
  await phone.page.getByLabel('Your reply').fill(text);
  await phone.page.getByRole('button', { name: 'Post Reply' }).click();
  await expect(toasts(phone.page).getByText('Account silenced')).toBeVisible();
  await expect(phone.page.getByLabel('Your reply')).toHaveValue(text);
  // On a phone the toast covers Post Reply (and the pointer left on it holds it): dismissed.
  await toasts(phone.page).getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(toasts(phone.page).getByText('Account silenced')).toBeHidden();
  await expect(replies(phone.page).filter({ hasText: text })).toHaveCount(0);

  // The server refuses it too, whatever a device says.
  const answer = await sendOps(phone.page, [{ type: 'reply', postId: await samplePostId(phone.page), content: 'Sent around the app.' }], 6);
  expect(answer.results.map((result) => result.code)).toEqual(['silenced']);

  await row.getByRole('button', { name: 'Unsilence' }).click();
  await expect(toasts(tablet.page).getByText('Member can write again')).toBeVisible();
  await expect(phone.page.getByRole('status').filter({ hasText: 'Account silenced.' })).toHaveCount(0);
  await expect(phone.page.getByRole('button', { name: 'New Post' })).toBeVisible();
  await phone.page.getByRole('button', { name: 'Post Reply' }).click();
  await expect(replies(phone.page).filter({ hasText: text })).toBeVisible();
  await waitSynced(phone.page);
  await phone.context.close();
  await tablet.context.close();
});

test('a reply queued offline before a silence is refused when it is sent, with the sentence, and kept as a draft', async ({ browser }) => {
  const member = 'queued.one@example.com';
  const phone = await signedInDevice(browser, spec.server, member, PHONE, '/forum');
  const tablet = await signedInDevice(browser, spec.server, ADMIN, TABLET, '/admin');
  await openSample(phone.page);
  // Written on the train: shown at once, waiting in the outbox.
  await phone.context.setOffline(true);
  const text = 'Written offline, before anyone said a word.';
  await phone.page.getByLabel('Your reply').fill(text);
  await phone.page.getByRole('button', { name: 'Post Reply' }).click();
  await expect(replies(phone.page).filter({ hasText: text })).toHaveCount(1);
  // Meanwhile the staff silence the member on the tablet.
  const row = await memberCard(tablet.page, member, 'Queued One');
  await row.getByRole('button', { name: 'Silence' }).click();
  const dialog = tablet.page.getByRole('dialog', { name: 'Silence Queued One' });
  await dialog.getByLabel('Reason').fill('Spam replies');
  await dialog.getByRole('button', { name: 'Silence', exact: true }).click();
  await expect(toasts(tablet.page).getByText('Member silenced')).toBeVisible();
  await reachedServer(tablet.page);
  // Back online: refused with the sentence, gone from the thread, and the words kept as a draft.
  await phone.context.setOffline(false);
  await expect(phone.page.getByRole('status').filter({ hasText: 'Account silenced.' })).toContainText(
    'What you wrote is kept as a draft.',
    {
      timeout: 30_000,
    },
  );
  await expect(replies(phone.page).filter({ hasText: text })).toHaveCount(0);
  await phone.page.reload();
  await expect(phone.page.getByLabel('Your reply')).toHaveValue(text);
  const stored = await storedRows<{ content: string }>(phone.page, 'replies');
  expect(stored.filter((reply) => reply.content === text)).toHaveLength(0);
  expect(await storedRows(phone.page, 'outbox')).toHaveLength(0);
  // The server never took it.
  await expect(tablet.page.getByText(text)).toHaveCount(0);
  await phone.context.close();
  await tablet.context.close();
});

/** The sample post's id on a device. */
async function samplePostId(page: Page): Promise<number> {
  const posts = await storedRows<{ id: number; title: string }>(page, 'posts');
  return posts.find((post) => post.title === SAMPLE)!.id;
}

test('a spammer deleted on the tablet leaves the phone live; the admin’s badge shows beside their reply', async ({ browser }) => {
  const spammer = await signedInDevice(browser, spec.server, 'cheap.pills@example.com', PHONE, '/forum');
  const spam = 'Cheap panel incentives, click here!';
  const postId = await samplePostId(spammer.page);
  const sent = await sendOps(spammer.page, [{ type: 'reply', postId, content: spam }], 6);
  expect(sent.results.map((result) => result.status)).toEqual(['applied']);

  const phone = await signedInDevice(browser, spec.server, 'careful.reader@example.com', PHONE, '/forum');
  await openSample(phone.page);
  await expect(replies(phone.page).filter({ hasText: spam })).toBeVisible();

  const tablet = await signedInDevice(browser, spec.server, ADMIN, TABLET, '/admin');
  const row = await memberCard(tablet.page, 'cheap.pills@example.com', 'Cheap Pills');
  await row.getByRole('button', { name: 'Delete spammer' }).click();
  await tablet.page.getByRole('dialog', { name: 'Delete spammer?' }).getByRole('button', { name: 'Delete spammer' }).click();
  await expect(toasts(tablet.page).getByText('Spammer deleted')).toBeVisible();
  await expect(row.getByText('Account closed')).toBeVisible();

  // Gone from the phone with the post open, without a reload.
  await expect(replies(phone.page).filter({ hasText: spam })).toHaveCount(0);

  // The admin answers; the member's phone shows the Admin badge beside the name.
  const answer = 'Removed. Please flag anything like it.';
  const adminSent = await sendOps(tablet.page, [{ type: 'reply', postId, content: answer }], 6);
  expect(adminSent.results.map((result) => result.status)).toEqual(['applied']);
  const adminsReply = replies(phone.page).filter({ hasText: answer });
  await expect(adminsReply).toBeVisible();
  await expect(adminsReply.getByText('Admin', { exact: true }).last()).toHaveClass(/app-admin-badge/);

  // The closed account cannot sign in again.
  await expect(spammer.page).toHaveURL(/\/login/);
  await spammer.context.close();
  await phone.context.close();
  await tablet.context.close();
});

test('a device holds no other member’s email, in IndexedDB or in the posts mirror', async ({ browser }) => {
  const me = 'private.eye@example.com';
  const phone = await signedInDevice(browser, spec.server, me, PHONE, '/forum');
  await openSample(phone.page);
  await waitSynced(phone.page);
  const posts = await storedRows<{ authorEmail: string; authorId?: string }>(phone.page, 'posts');
  const stored = await storedRows<{ authorEmail: string; authorId?: string }>(phone.page, 'replies');
  const mirrored = await mirroredPosts(phone.page);
  expect(posts.length).toBeGreaterThan(1);
  expect(stored.length).toBeGreaterThan(0);
  for (const row of [...posts, ...stored, ...mirrored]) expect(['', me]).toContain(row.authorEmail);
  // Every author is known by the random id the server gave the account.
  for (const row of [...posts, ...stored]) expect(row.authorId).toMatch(/^[0-9a-f]{16}$/);
  const everything = await phone.page.evaluate(() => JSON.stringify(localStorage));
  expect(everything).not.toMatch(/@northbeam-research\.com/);
  await phone.context.close();
});

test('“Admin” is the staff’s name: Create Account refuses it, and a look-alike, with a sentence', async ({ browser }) => {
  const { context, page } = await newDevice(browser, spec.server, PHONE);
  await page.goto('/login?mode=signup');
  await page.getByLabel('Name').fill('Аdmin'); // a Cyrillic А
  await page.getByLabel('Email').fill('not.staff@example.com');
  await page.getByLabel('Password').fill(passwordOf('not.staff@example.com'));
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await expect(toasts(page).getByText('This name is kept for the forum’s staff. Choose another one.')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByLabel('Name')).toHaveValue('Аdmin');
  await page.getByLabel('Name').fill('Nadia Reyes');
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await context.close();
});
