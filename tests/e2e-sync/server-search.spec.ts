// Issue 23: a connected device that holds part of the forum says so under a search and searches the
// server (PostgreSQL full-text search, ranked) by itself since issue 44; offline it says why it cannot.
import { expect, test } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { card, signedInDevice, waitSynced } from './support/devices';
import { publish } from './support/member-actions';

const SAMPLE = 'How are you validating AI-generated survey insights before they reach clients?';

const spec = serverForSpec(syncPort(20));

test('holds part: a search asks the server by itself and shows its ranked results, highlighted; offline it says why not', async ({
  browser,
}) => {
  // More posts than Free up space keeps (the newest 50), so it leaves the device holding part.
  const admin = await signedInDevice(browser, spec.server, 'admin@insightexchange.app');
  await publish(
    admin.page,
    Array.from({ length: 52 }, (_, index) => `Filler post ${index + 1}`),
  );
  await admin.context.close();
  const { page, context } = await signedInDevice(browser, spec.server, 'searcher@example.com');
  const search = page.getByLabel('Search posts');
  await search.fill('validating');
  await expect(card(page, SAMPLE)).toBeVisible();
  await expect(page.getByText('This device holds part of the forum.')).toHaveCount(0);

  await page.goto('/profile');
  await page.getByRole('button', { name: 'Free up space' }).click();
  await page.getByRole('dialog', { name: 'Free up space?' }).getByRole('button', { name: 'Free up space' }).click();
  await expect(page.getByRole('button', { name: 'Download the whole forum' })).toBeVisible();

  await page.goto('/forum?q=validating');
  await waitSynced(page);
  await expect(page.getByText('This device holds part of the forum.')).toBeVisible();
  const results = page.getByRole('region', { name: /Results from the server/ });
  await expect(results.getByRole('article').filter({ has: page.getByRole('heading', { name: SAMPLE }) })).toBeVisible();
  await expect(results.getByRole('article').first().locator('mark').first()).toHaveText(/validating/i);

  await expect(page.getByText('The server’s results come first.')).toBeVisible();
  await context.setOffline(true);
  await expect(page.getByText('Searching the server needs a connection: you are offline.')).toBeVisible();
  // Offline, the search still answers from what the device holds.
  await search.fill('"Filler post 52"');
  await expect(card(page, 'Filler post 52')).toBeVisible();
  await context.setOffline(false);

  // Download the whole forum: the device holds everything again, and the offer goes.
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Download the whole forum' }).click();
  await expect(page.getByRole('button', { name: 'Download the whole forum' })).toHaveCount(0);
  await page.goto('/forum?q=validating');
  await expect(card(page, SAMPLE)).toBeVisible();
  await expect(page.getByText('This device holds part of the forum.')).toHaveCount(0);
  await context.close();
});
