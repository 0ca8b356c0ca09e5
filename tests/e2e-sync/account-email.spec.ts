// Accounts people keep, across devices (issue 41): Forgot password on a phone with the emailed link
// (read from the .eml the server wrote under DATA_DIR/mail: no SMTP_URL here), the new password
// working and the tablet's old session signed out live, told why; "Sign out" of one device from
// another's Profile; and Change email (issue 59), its link read the same way.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { serverForSpec, syncPort } from './support/server';
import { card, newDevice, passwordOf, PHONE, signedInDevice, submitNewPost, TABLET, waitSynced } from './support/devices';

const spec = serverForSpec(syncPort(30));
const toasts = (page: Page) => page.locator('.app-toasts');

/** The texts of the .eml files to `to` whose subject starts with `subject`, once there is one. */
async function emailTo(to: string, subject: string): Promise<string> {
  const dir = join(spec.server.dataDir, 'mail');
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        let files: string[];
        try {
          files = readdirSync(dir).filter((name) => name.endsWith('.eml'));
        } catch {
          return false;
        }
        for (const file of files) {
          const mail = await simpleParser(readFileSync(join(dir, file)));
          if (mail.subject?.startsWith(subject) && JSON.stringify(mail.to).includes(to)) found = mail.text ?? '';
        }
        return found !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

test('forgot password on a phone: the emailed link sets a new password, which works; the tablet is signed out live and told why', async ({
  browser,
}) => {
  const member = 'forgetful.one@example.com';
  const tablet = await signedInDevice(browser, spec.server, member, TABLET, '/forum');
  const phone = await newDevice(browser, spec.server, PHONE);
  await phone.page.goto('/login');
  await phone.page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(phone.page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
  await phone.page.getByLabel('Email').fill(member);
  await phone.page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(phone.page.getByRole('main').getByRole('status')).toContainText(
    'If this email has an account, a link to reset its password is on its way',
  );

  const text = await emailTo(member, 'Reset your Insight Exchange password');
  const link = new URL(text.match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/)![0]);
  await phone.page.goto(`/reset-password${link.search}`);
  await phone.page.getByLabel('New password').fill('a-fresh-start-2026');
  await phone.page.getByRole('button', { name: 'Set password' }).click();
  await expect(phone.page.getByRole('main').getByRole('status')).toContainText('Your new password is set');
  // The used link, opened again, says so at once: no password to type for nothing.
  const usedAgain = await phone.page.context().newPage();
  await usedAgain.goto(`/reset-password${link.search}`);
  await expect(usedAgain.getByRole('main').getByRole('alert')).toContainText('This link has expired or was already used');
  await expect(usedAgain.getByRole('button', { name: 'Set password' })).toHaveCount(0);
  await usedAgain.close();

  // The tablet hears it on its live stream: back at /login, told why, once; no draft was kept, none is named (issue 59).
  await expect(tablet.page).toHaveURL(/\/login/);
  const told = tablet.page.getByRole('main').getByRole('status');
  await expect(told).toContainText('Your password was changed');
  await expect(told).not.toContainText(/another tab|draft/);
  await expect(toasts(tablet.page).getByRole('alert')).toBeEmpty();

  // The new password works; the old one does not.
  await phone.page.getByRole('link', { name: 'Sign In' }).click();
  await phone.page.getByLabel('Email').fill(member);
  await phone.page.getByLabel('Password').fill(passwordOf(member));
  await phone.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toasts(phone.page).getByText('Incorrect email or password.')).toBeVisible();
  await phone.page.getByLabel('Password').fill('a-fresh-start-2026');
  await phone.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toasts(phone.page).getByText('Logged in successfully!')).toBeVisible();
  await phone.context.close();
  await tablet.context.close();
});

test('Profile lists the signed-in devices; “Sign out” of the phone from the tablet signs the phone out live', async ({ browser }) => {
  const member = 'two.devices@example.com';
  const phone = await signedInDevice(browser, spec.server, member, PHONE, '/forum');
  const tablet = await signedInDevice(browser, spec.server, member, TABLET, '/profile');
  const devices = tablet.page.getByRole('region', { name: 'Signed-in devices' });
  await expect(devices.getByText('This device')).toHaveCount(1);
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  await devices.getByRole('button', { name: /^Sign out Chrome on / }).click();
  await expect(toasts(tablet.page).getByText(/was signed out\./)).toBeVisible();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expect(phone.page).toHaveURL(/\/login/);
  await expect(phone.page.getByRole('main').getByRole('status')).toContainText('This device was signed out from another device');
  await phone.context.close();
  await tablet.context.close();
});

test('Delete my account on a phone, keeping what was written: the tablet shows the post under “Deleted member”, live', async ({
  browser,
}) => {
  const member = 'leaving.soon@example.com';
  const phone = await signedInDevice(browser, spec.server, member, PHONE, '/forum');
  const tablet = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET, '/admin');
  await submitNewPost(phone.page, 'Panel attrition by wave', 'Wave 3 lost a fifth of the panel; here is what we changed.');
  await waitSynced(phone.page);
  await card(tablet.page, 'Panel attrition by wave').getByRole('button', { name: 'Approve' }).click();
  // The approval is written on the device (its toast) before the page is left, then sent.
  await expect(toasts(tablet.page).getByRole('status').filter({ hasText: 'Post approved' })).toBeVisible();
  await waitSynced(tablet.page);
  await tablet.page.goto('/forum');
  await expect(card(tablet.page, 'Panel attrition by wave')).toContainText('Leaving Soon');

  await phone.page.goto('/profile');
  const data = phone.page.getByRole('region', { name: 'Your data' });
  await data.getByRole('button', { name: 'Delete my account' }).click();
  const form = data.getByRole('form', { name: 'Delete my account' });
  await expect(form.getByLabel('Keep my posts and replies, as “Deleted member”')).toBeChecked();
  await form.getByLabel('Password').fill(passwordOf(member));
  await form.getByRole('button', { name: 'Delete my account' }).click();
  await expect(toasts(phone.page).getByText('Your account was deleted, and every device signed out.')).toBeVisible();
  await expect(phone.page).toHaveURL(/\/$/);

  await expect(card(tablet.page, 'Panel attrition by wave')).toContainText('Deleted member');
  await expect(card(tablet.page, 'Panel attrition by wave')).not.toContainText('Leaving Soon');
  await phone.context.close();
  await tablet.context.close();
});

test('the admin emails a member a reset link from Members; the member sets a new password with it on a phone', async ({ browser }) => {
  const member = 'locked.out@example.com';
  const old = await signedInDevice(browser, spec.server, member, PHONE, '/forum');
  await old.context.close();
  const tablet = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET, '/admin');
  await tablet.page.goto('/admin?tab=members');
  await tablet.page.getByLabel('Find a member').fill(member);
  const row = tablet.page.getByRole('article').filter({ has: tablet.page.getByRole('heading', { name: 'Locked Out', exact: true }) });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Email reset link' }).click();
  await expect(toasts(tablet.page).getByText('Locked Out will receive a link that works once, for 30 minutes.')).toBeVisible();

  const text = await emailTo(member, 'Reset your Insight Exchange password');
  const link = new URL(text.match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/)![0]);
  const phone = await newDevice(browser, spec.server, PHONE);
  await phone.page.goto(`/reset-password${link.search}`);
  await phone.page.getByLabel('New password').fill('given-back-by-the-admin');
  await phone.page.getByRole('button', { name: 'Set password' }).click();
  await expect(phone.page.getByRole('main').getByRole('status')).toContainText('Your new password is set');
  await phone.page.getByRole('link', { name: 'Sign In' }).click();
  await phone.page.getByLabel('Email').fill(member);
  await phone.page.getByLabel('Password').fill('given-back-by-the-admin');
  await phone.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toasts(phone.page).getByText('Logged in successfully!')).toBeVisible();
  await phone.context.close();
  await tablet.context.close();
});

test('Change email on Profile: the link to the new address changes it, and the device goes on as the same member with its posts', async ({
  browser,
}) => {
  const member = 'moving.house@example.com';
  const moved = 'moved.house@example.net';
  const phone = await signedInDevice(browser, spec.server, member, PHONE, '/forum');
  await submitNewPost(phone.page, 'Diary study recruitment', 'Twelve participants kept a diary for two weeks.');
  await waitSynced(phone.page);

  await phone.page.goto('/profile');
  const section = phone.page.getByRole('region', { name: 'Email', exact: true });
  await expect(section).toContainText(member);
  await section.getByLabel('New email').fill(moved);
  await section.getByLabel('Current password').fill(passwordOf(member));
  await section.getByRole('button', { name: 'Change email' }).click();
  await expect(section.getByRole('status')).toContainText('Check your new address for a link to confirm it.');

  const text = await emailTo(moved, 'Confirm your new email');
  const link = new URL(text.match(/https?:\/\/\S+\/confirm-email\?token=[\w-]+/)![0]);
  await phone.page.goto(`/confirm-email${link.search}`);
  await expect(phone.page.getByRole('main').getByRole('status')).toContainText('Your email is changed');
  await expect(emailTo(member, 'Your Insight Exchange email was changed')).resolves.toContain('m***@example.net');

  await phone.page.goto('/profile');
  await expect(phone.page).toHaveURL(/\/profile/);
  await expect(phone.page.getByRole('region', { name: 'Email', exact: true })).toContainText(moved);
  // Its pending post is still its own on this device (nothing was wiped).
  await expect(phone.page.getByRole('main')).toContainText('Diary study recruitment');
  await phone.context.close();
});
