// Signing in with your organisation across devices (issue 63): a phone signs in through a real
// OpenID provider (oidc-provider, in this process on 127.0.0.1), turns on two-step verification with
// a code computed here from the key Profile shows, and a tablet's organisation sign-in then asks for a
// code (a wrong one refused, a fresh one accepted). The phone, signed in by the provider, stays signed
// in offline after a reload, and the like it makes there is sent once when it comes back. A member
// the organisation made has no password: Profile says the email is the organisation’s and deletes the
// account on a recent sign-in, with no password.
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP as Totp } from 'otpauth';
import { ERRORS } from '../../src/shared/errors';
import { TOTP } from '../../src/shared/sign-in';
import { startProvider, type TestProvider } from '../support/oidc-provider';
import { ADMIN_PASSWORD, removeData, startServer, syncPort, type RunningServer } from './support/server';
import { PHONE, TABLET, card, newDevice, serverPosts, shownLikes, syncStatus, waitSynced } from './support/devices';

const LABEL = 'Northwind';
const MEMBER = { sub: 'nw-0042', email: 'ines.duarte@northwind.example', emailVerified: true, name: 'Ines Duarte' };
const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';
const PERIOD_MS = TOTP.period * 1000;

let provider: TestProvider;
let server: RunningServer;

test.beforeAll(async () => {
  const port = syncPort(17);
  const client = {
    clientId: 'forum',
    clientSecret: 'forum-client-secret-e2e',
    redirectUris: [`http://127.0.0.1:${port}/api/oidc/callback`],
  };
  provider = await startProvider({ port: syncPort(23), clients: [client], accounts: [MEMBER] });
  server = await startServer({
    port,
    env: { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: client.clientId, OIDC_CLIENT_SECRET: client.clientSecret, OIDC_LABEL: LABEL },
  });
});

test.afterAll(async () => {
  await server?.stop();
  if (server) removeData(server);
  await provider?.close();
});

const toast = (page: Page, role: 'status' | 'alert', text: string) => page.locator('.app-toasts').getByRole(role).filter({ hasText: text });

/** "Sign in with Northwind" on /login, then the provider's own page (a device new to the provider). */
async function signInWithOrganisation(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByRole('button', { name: `Sign in with ${LABEL}` }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.getByLabel('Email').fill(MEMBER.email);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The code an authenticator app shows for `key` (as Profile shows it, grouped) in time step `step`. */
const codeFor = (key: string, step: number) =>
  Totp.generate({
    secret: Secret.fromBase32(key.replace(/\s+/g, '')),
    digits: TOTP.digits,
    period: TOTP.period,
    timestamp: step * PERIOD_MS,
  });

const stepNow = () => Math.floor(Date.now() / PERIOD_MS);

test('a phone signs in with the organisation and turns on two-step verification; the tablet then asks for a code; the phone works offline', async ({
  browser,
}) => {
  const phone = await newDevice(browser, server, PHONE, 'allow');
  await signInWithOrganisation(phone.page);
  await expect(toast(phone.page, 'status', 'Signed in with your organisation.')).toBeVisible();

  // Profile → Two-step verification → Set up: the key is read from its field, the code computed from it.
  await phone.page.goto('/profile');
  const section = phone.page.getByRole('region', { name: 'Two-step verification' });
  await section.getByRole('button', { name: 'Set up' }).click();
  const key = await section.getByLabel('Key').inputValue();
  const phoneStep = stepNow();
  await section.getByLabel('Code').fill(codeFor(key, phoneStep));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await expect(section.getByRole('button', { name: 'Download codes' })).toBeVisible();

  // The tablet: the organisation's sign-in is the first factor only now.
  const tablet = await newDevice(browser, server, TABLET);
  await signInWithOrganisation(tablet.page);
  const code = tablet.page.getByLabel('Code', { exact: true });
  await expect(code).toBeVisible();
  // A wrong code: none of the three steps the server accepts around now.
  const near = [-1, 0, 1].map((delta) => codeFor(key, stepNow() + delta));
  const wrong = ['000000', '111111', '222222', '333333'].find((guess) => !near.includes(guess))!;
  await code.fill(wrong);
  await tablet.page.getByRole('button', { name: 'Verify' }).click();
  await expect(toast(tablet.page, 'alert', ERRORS.bad_code.message)).toBeVisible();
  // A fresh time step, never the phone's (a code is never accepted twice): the next one, a step ahead
  // of the server's clock at most, which it accepts for clock drift.
  await code.fill(codeFor(key, Math.max(stepNow(), phoneStep + 1)));
  await tablet.page.getByRole('button', { name: 'Verify' }).click();
  await expect(toast(tablet.page, 'status', 'Logged in successfully!')).toBeVisible();
  await tablet.page.goto('/forum');
  await waitSynced(tablet.page);

  // Offline (item 4): the phone, signed in by the provider, reloads offline and is still signed in.
  await phone.page.goto('/forum');
  await waitSynced(phone.page);
  await expect
    .poll(() => phone.page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state), { timeout: 30_000 })
    .toBe('activated');
  await expect.poll(() => phone.page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 30_000 }).toBe(true);
  const before = await shownLikes(phone.page, SAMPLE);
  await phone.context.setOffline(true);
  await phone.page.reload();
  await expect(syncStatus(phone.page)).toHaveAccessibleName('Sync status: Offline');
  await expect(phone.page).toHaveURL(/\/forum$/);
  await card(phone.page, SAMPLE).getByRole('button', { name: /^Like/ }).click();
  await expect(syncStatus(phone.page)).toHaveAccessibleName('Sync status: Offline, 1 change waiting');
  await phone.context.setOffline(false);
  await waitSynced(phone.page);
  // Sent once: the server counts one like, and the tablet sees it live.
  await expect.poll(() => shownLikes(tablet.page, SAMPLE)).toBe(before + 1);
  expect((await serverPosts(server, ADMIN_PASSWORD)).find((post) => post.title === SAMPLE)?.likes).toBe(before + 1);
  await phone.context.close();
  await tablet.context.close();
});

test('a member the organisation made has no password: Profile says the email is the organisation’s, and a recent sign-in deletes the account', async ({
  browser,
}) => {
  const leaver = { sub: 'nw-0043', email: 'tomas.reis@northwind.example', emailVerified: true, name: 'Tomas Reis' };
  provider.addAccount(leaver);
  const phone = await newDevice(browser, server, PHONE);
  await phone.page.goto('/login');
  await phone.page.getByRole('button', { name: `Sign in with ${LABEL}` }).click();
  await phone.page.waitForURL((url) => url.origin === provider.issuer);
  await phone.page.getByLabel('Email').fill(leaver.email);
  await phone.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(toast(phone.page, 'status', 'Signed in with your organisation.')).toBeVisible();

  await phone.page.goto('/profile');
  const email = phone.page.getByRole('region', { name: 'Email', exact: true });
  await expect(email.getByText(`This is the email ${LABEL} gave your account`)).toBeVisible();
  await expect(email.getByRole('button', { name: 'Change email' })).toHaveCount(0);
  await expect(phone.page.getByRole('region', { name: 'Password' }).getByText('has no password here')).toBeVisible();

  // Signed in a moment ago: no password is asked for.
  const data = phone.page.getByRole('region', { name: 'Your data' });
  await data.getByRole('button', { name: 'Delete my account' }).click();
  const form = phone.page.getByRole('form', { name: 'Delete my account' });
  await expect(form.getByText('You signed in less than 10 minutes ago, so no password is needed.')).toBeVisible();
  await expect(form.getByLabel('Password')).toHaveCount(0);
  await form.getByRole('button', { name: 'Delete my account' }).click();
  await expect(toast(phone.page, 'status', 'Your account was deleted')).toBeVisible();
  await expect(phone.page).toHaveURL(/\/$/);
  // Signed out: Profile now asks for a sign-in.
  await phone.page.goto('/profile');
  await expect(phone.page).toHaveURL(/\/login/);
  await phone.context.close();
});
