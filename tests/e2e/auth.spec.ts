import { expect, test } from '@playwright/test';
import { ADMIN, signIn, toast } from './support/app';

test.describe('the login screen', () => {
  test('toggles between Sign In and Create Account; Name appears only when creating an account', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveCount(0);
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByLabel('Password')).toBeVisible();
    await page.getByRole('button', { name: 'Create an account' }).click();
    await expect(page.getByRole('heading', { name: 'Create Account', exact: true })).toBeVisible();
    await expect(page.getByLabel('Name')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create Account', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Sign in instead' }).click();
    await expect(page.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveCount(0);
  });

  test('asks for email and password with a destructive toast, and marks the missing field', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const error = toast(page, 'Error', 'alert');
    await expect(error).toContainText('Please enter email and password.');
    await expect(error.locator('.toast')).toHaveClass(/text-bg-danger/);
    await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Password')).toBeFocused();
    await expect(page).toHaveURL('/login');
  });

  test('asks for all fields when creating an account', async ({ page }) => {
    await page.goto('/login?mode=signup');
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('Password').fill('secret-phrase');
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await expect(toast(page, 'Error', 'alert')).toContainText('Please fill all fields.');
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  });

  test('creates an account, welcomes the member, goes home, and restores the name on the next sign-in', async ({ page }) => {
    await page.goto('/login?mode=signup');
    await page.getByLabel('Name').fill('Dana Whitfield');
    await page.getByLabel('Email').fill('Dana@Example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await expect(toast(page, 'Welcome!')).toContainText('Account created successfully!');
    await expect(page).toHaveURL('/');
    const stored = await page.evaluate(() => localStorage.getItem('insightExchangeUser'));
    expect(JSON.parse(stored!)).toEqual({ email: 'dana@example.com', name: 'Dana Whitfield', role: 'user' });
    expect(stored).not.toContain('correct horse');

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL('/login');
    await page.getByLabel('Email').fill('dana@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(toast(page, 'Error', 'alert')).toContainText('Incorrect email or password.');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL('/');
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Dana Whitfield' })).toBeVisible();
  });

  test('signs in any email with a name taken from it; the admin address gets the admin role', async ({ page }) => {
    await signIn(page, 'jane.doe@example.com');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('insightExchangeUser')))!)).toEqual({
      email: 'jane.doe@example.com',
      name: 'Jane Doe',
      role: 'user',
    });
    await signIn(page, `  ${ADMIN.toUpperCase()} `);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('insightExchangeUser')))!)).toMatchObject({
      email: ADMIN,
      role: 'admin',
    });
  });

  test('logging out clears the session, goes to /login and says Logged Out', async ({ page }) => {
    await signIn(page, 'jane.doe@example.com');
    await page.goto('/forum');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL('/login');
    await expect(toast(page, 'Logged Out')).toContainText('You have been successfully logged out.');
    expect(await page.evaluate(() => localStorage.getItem('insightExchangeUser'))).toBeNull();
    await page.goto('/forum');
    await expect(page).toHaveURL('/login');
  });
});

test.describe('accounts without a server (local-only)', () => {
  test('Sign In offers no “Forgot password?”, /reset-password and Profile say plainly that reset, devices and email need the server', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveCount(0);
    await page.goto('/reset-password');
    await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('Password reset and email need the forum’s server.');
    await expect(page.getByRole('button', { name: 'Send reset link' })).toHaveCount(0);
    await signIn(page, ADMIN);
    await page.goto('/profile');
    const account = page.getByRole('region', { name: 'Account' });
    await expect(account).toContainText('Password reset, signed-in devices and email need the forum’s server.');
    await expect(page.getByRole('region', { name: 'Signed-in devices' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Export my posts' })).toBeVisible();
  });
});
