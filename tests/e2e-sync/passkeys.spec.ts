// Passkeys in the browser (issue 63, item 3), with Chromium's virtual authenticator (the DevTools
// protocol's WebAuthn domain, through a CDP session): a platform authenticator that holds
// discoverable credentials and verifies its user. "Add a passkey" on Profile makes one, "Sign in
// with a passkey" on /login signs in with it after Log out (no email typed), Profile lists it as
// used, and "Remove" removes it. The server's checks (replays, origins, other accounts, limits) are
// tested against a software authenticator in tests/server/routes/api/passkeys.test.ts.
import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, serverForSpec, syncPort } from './support/server';
import { PHONE, signIn } from './support/devices';

const spec = serverForSpec(syncPort(58));

test('a passkey added on Profile signs in after Log out, is listed as used, and Remove removes it', async ({ browser }) => {
  // WebAuthn needs a domain for its relying party (never an IP address): the server also answers to localhost.
  const origin = spec.server.url.replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL: origin, viewport: PHONE, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });

  // The admin's account: it exists from start-up, so nothing is made through email first.
  await signIn(page, 'admin@insightexchange.app', ADMIN_PASSWORD);
  await page.goto('/profile');
  const panel = page.getByRole('region', { name: 'Passkeys' });
  await expect(panel.getByText('No passkeys yet.')).toBeVisible();
  await panel.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Passkey added' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Remove' })).toHaveCount(1);
  await expect(panel.getByText('Not used yet')).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials.map((credential) => credential.isResidentCredential)).toEqual([true]);

  await page.getByRole('button', { name: 'Menu' }).click(); // a phone's header menu
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Logged in successfully!' })).toBeVisible();
  await expect(page).toHaveURL(`${origin}/`);
  expect((await (await page.request.get('/api/session')).json()).user.email).toBe('admin@insightexchange.app');

  await page.goto('/profile');
  await expect(panel.getByText(/^Last used /)).toBeVisible();
  await panel.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove passkey?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByText('No passkeys yet.')).toBeVisible();
  await context.close();
});
