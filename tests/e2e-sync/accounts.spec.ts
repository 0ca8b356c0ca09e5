// Accounts live on the server: the same account on a second device needs the same password, the
// admin address cannot be claimed, and a first sign-in on a device while offline says why it fails.
import { ERRORS, SIGN_UP_PASSWORD_WRONG_MESSAGE } from '../../src/shared/errors';
import { expect, test, type Page } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { newDevice } from './support/devices';
import { join } from 'node:path';
import { waitForSignUpToken } from '../server/support/mail-folder';

const spec = serverForSpec(syncPort(4));

const alert = (page: Page, text: string) => page.locator('.app-toasts').getByRole('alert').filter({ hasText: text });
const success = (page: Page, text: string) => page.locator('.app-toasts').getByRole('status').filter({ hasText: text });

async function fill(page: Page, email: string, password: string, name?: string) {
  if (name !== undefined) await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
}

test('Create Account: “Check your email”, the emailed link signs in; the same account on a second device needs the same password', async ({
  browser,
}) => {
  const first = await newDevice(browser, spec.server);
  await first.page.goto('/login?mode=signup');
  await fill(first.page, 'priya@example.com', 'priya-quiet-harbor-7419', 'Priya Raman');
  await first.page.getByRole('button', { name: 'Create Account', exact: true }).click();
  // Issue 59: no account and no session until the emailed link is opened.
  await expect(first.page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(first.page.getByRole('main').getByRole('status')).toContainText('Check your email to finish creating your account');
  expect(await first.page.evaluate(() => localStorage.getItem('insightExchangeUser'))).toBeNull();
  const token = await waitForSignUpToken(join(spec.server.dataDir, 'mail'), 'priya@example.com');
  await first.page.goto(`/confirm-email?token=${token}`);
  // The link asks for the password chosen at Create Account: someone else's sign-up makes nothing.
  const finish = first.page.getByRole('button', { name: 'Finish creating account' });
  await first.page.getByLabel('Password').fill('not-the-chosen-passphrase');
  await finish.click();
  await expect(first.page.getByText(SIGN_UP_PASSWORD_WRONG_MESSAGE)).toBeVisible();
  await first.page.getByLabel('Password').fill('priya-quiet-harbor-7419');
  await finish.click();
  await expect(first.page.getByRole('main').getByRole('status')).toContainText('Your email is confirmed and your account is ready');
  await first.page.getByRole('link', { name: 'Go to the forum' }).click();
  await expect(first.page).toHaveURL(/\/forum/);
  expect(await first.page.evaluate(() => JSON.parse(localStorage.getItem('insightExchangeUser') ?? 'null') as unknown)).toEqual({
    email: 'priya@example.com',
    name: 'Priya Raman',
    role: 'user',
  });

  const second = await newDevice(browser, spec.server);
  await second.page.goto('/login');
  await fill(second.page, 'priya@example.com', 'not-her-password');
  await second.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(alert(second.page, 'Incorrect email or password.')).toBeVisible();
  await fill(second.page, 'priya@example.com', 'priya-quiet-harbor-7419');
  // A slow server (scrypt on a busy machine): the button says so at once, then the forum opens.
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await second.page.route('**/api/session', async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await second.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  const progress = second.page.getByRole('button', { name: 'Signing in…' });
  await expect(progress).toBeDisabled();
  await expect(progress).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(success(second.page, 'Logged in successfully!')).toBeVisible();
  await second.page.unroute('**/api/session');
  await second.page.goto('/profile');
  await expect(second.page.getByRole('heading', { name: 'Priya Raman' })).toBeVisible();
  // The stored user keeps its shape: no password, no token.
  const stored = await second.page.evaluate(() => JSON.parse(localStorage.getItem('insightExchangeUser') ?? 'null') as unknown);
  expect(stored).toEqual({ email: 'priya@example.com', name: 'Priya Raman', role: 'user' });
  await first.context.close();
  await second.context.close();
});

test('the admin address cannot be claimed by signing up or by guessing', async ({ browser }) => {
  const { context, page } = await newDevice(browser, spec.server);
  await page.goto('/login?mode=signup');
  await fill(page, 'Admin@InsightExchange.app ', 'mine-now-all-mine-2026', 'Mallory');
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  // The answer a new address gets too (sign-up never says who has an account), and no session.
  await expect(page.getByRole('heading', { name: ERRORS.check_email.title })).toBeVisible();
  await expect(page.getByRole('main').getByRole('status')).toContainText(ERRORS.check_email.message);
  expect(await page.evaluate(() => localStorage.getItem('insightExchangeUser'))).toBeNull();
  await page.goto('/login');
  await fill(page, 'admin@insightexchange.app', 'mine-now-all-mine-2026');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(alert(page, 'Incorrect email or password.')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('insightExchangeUser'))).toBeNull();
  await context.close();
});

test('signing in for the first time on a device while offline says so plainly', async ({ browser }) => {
  const { context, page } = await newDevice(browser, spec.server);
  const health = page.waitForResponse((response) => response.url().endsWith('/api/health'));
  const signInCode = page.waitForResponse((response) => /\/assets\/auth-[\w-]+\.js$/.test(response.url()));
  // The offline sign-in's own chunk, loaded by /login after the sign-in's (a case going offline
  // between the two is tests/unit/sync/sign-in-offline-no-code.test.ts: the same sentence).
  const offlineCode = page.waitForResponse((response) => /\/assets\/offline-accounts-[\w-]+\.js$/.test(response.url()));
  await page.goto('/login');
  await Promise.all([health, signInCode, offlineCode]); // the device has met its server and has the sign-in code
  await context.setOffline(true);
  await fill(page, 'newcomer@example.com', 'newcomer-quiet-harbor-7419');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(alert(page, "You're offline. Signing in on a new device needs a connection.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await context.close();
});
