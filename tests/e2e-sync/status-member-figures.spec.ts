// The header's status and member pages on a device of a served forum: on a phone the header shows
// "Offline · N" without opening the menu; a member's page shows the server's figures online and the
// device's offline. (The theme following the member between devices: member-preferences.spec.ts.)
import { expect, test } from '@playwright/test';
import { memberId } from '../../src/shared/members';
import { offerInstall } from '../e2e/support/app';
import { serverForSpec, syncPort } from './support/server';
import { card, PHONE, signedInDevice, syncStatus, waitSynced } from './support/devices';

const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';
const spec = serverForSpec(syncPort(19));

test('on a phone, "Offline · N" shows in the collapsed header without opening the menu', async ({ browser }) => {
  const { context, page } = await signedInDevice(browser, spec.server, 'status@example.com', PHONE, '/forum');
  await context.setOffline(true);
  await expect(syncStatus(page)).toHaveAccessibleName('Sync status: Offline');
  await card(page, SAMPLE).getByRole('button', { name: /^Like/ }).click();
  await expect(syncStatus(page)).toHaveAccessibleName('Sync status: Offline, 1 change waiting');
  await expect(syncStatus(page)).toBeVisible();
  await expect(syncStatus(page).getByText('Offline · 1', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  await expect(syncStatus(page)).toHaveCount(1);
  // With Install showing too, the header keeps its one row (issue 40).
  await offerInstall(page);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Install' })).toBeVisible();
  const toggle = (await page.getByRole('button', { name: 'Menu' }).boundingBox())!;
  const badge = (await syncStatus(page).boundingBox())!;
  expect(Math.abs(badge.y + badge.height / 2 - (toggle.y + toggle.height / 2))).toBeLessThan(6);
  expect((await page.getByRole('banner').boundingBox())!.height).toBeLessThan(80);
  await context.setOffline(false);
  await waitSynced(page);
  await context.close();
});

test("a member's page shows the server's figures when online, and what the device holds offline", async ({ browser }) => {
  const { context, page } = await signedInDevice(browser, spec.server, 'reader@example.com', PHONE, '/forum');
  // An author's name links to their page, by the random id the server gave their account.
  await page.getByRole('article').getByRole('link', { name: 'Sarah Chen', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sarah Chen' })).toBeVisible();
  const sarahsPage = page.url();
  expect(sarahsPage).toMatch(/\/members\/[0-9a-f]{16}$/);
  expect(sarahsPage).not.toContain(memberId('sarah.chen@northbeam-research.com'));
  // On a post's own page too: the byline and each reply's author (this device holds no email of theirs).
  await page.goto('/forum');
  await card(page, SAMPLE).getByRole('link', { name: SAMPLE }).click();
  await expect(page.getByRole('heading', { level: 1, name: SAMPLE })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sarah Chen', exact: true }).first()).toHaveAttribute('href', new URL(sarahsPage).pathname);
  await expect(page.getByRole('link', { name: 'Marcus Webb', exact: true })).toHaveAttribute('href', /^\/members\/[0-9a-f]{16}$/);
  await page.goto(sarahsPage);
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.getByText('Counted from the posts and replies on this device.')).toHaveCount(0);
  // The server knows when each account joined; a member with nothing posted yet sees their own page.
  await page.goto('/profile');
  await page.getByRole('link', { name: 'View public page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reader' })).toBeVisible();
  await expect(page.getByText(/^Joined [A-Z][a-z]+ \d{4}$/)).toBeVisible();
  await page.goto(sarahsPage);
  await expect(page.getByRole('heading', { level: 1, name: 'Sarah Chen' })).toBeVisible();
  // The post's view, recorded above, is sent first (a CI run went offline with it still waiting).
  await waitSynced(page);
  await context.setOffline(true);
  await expect(syncStatus(page)).toHaveAccessibleName('Sync status: Offline');
  // Away and back within the app (no service worker here to load a page offline).
  await page
    .getByRole('banner')
    .getByRole('link', { name: 'Forum' })
    .filter({ visible: true })
    .or(page.getByRole('link', { name: 'Insight Exchange' }))
    .first()
    .click();
  await expect(page).toHaveURL('/forum');
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Sarah Chen' })).toBeVisible();
  await expect(page.getByText('Counted from the posts and replies on this device.')).toBeVisible();
  await context.setOffline(false);
  await context.close();
});
