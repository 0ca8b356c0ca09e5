// Polls in local-only mode (issue 42): New Post's "Add poll" with its refusals in words; a poll on
// one device, live in every tab: a vote, its results, Close poll and the results as CSV.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { card, makePost, MEMBER, openForum, putPosts, storeSession, toast } from './support/app';

const QUESTION = 'Which incentive lifted completes most?';
const pollOf = (page: Page) => page.getByRole('group', { name: QUESTION });

test('New Post: Add poll, its refusals in words, and the pending post’s poll that takes no vote yet', async ({ page }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  await page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill('Incentives, a poll');
  await dialog.getByLabel('Content').fill('Tell us what worked.');
  await dialog.getByRole('button', { name: 'Add poll' }).click();
  await dialog.getByLabel('Question').fill(QUESTION);
  await dialog.getByLabel('Option 1', { exact: true }).fill('Cash');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Poll needs options', 'alert')).toBeVisible();
  await dialog.getByLabel('Option 2', { exact: true }).fill('cash ');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Options repeat', 'alert')).toBeVisible();
  await dialog.getByLabel('Option 2', { exact: true }).fill('Prize draw');
  await dialog.getByLabel('Closes on').fill('2020-01-01');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Closing date passed', 'alert')).toBeVisible();
  await dialog.getByLabel('Closes on').fill('');
  await dialog.getByRole('button', { name: 'Add option' }).click();
  await dialog.getByLabel('Option 3', { exact: true }).fill('Donation');
  await dialog.getByRole('button', { name: 'Remove choice 3' }).click();
  await expect(dialog.getByLabel('Option 3', { exact: true })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(toast(page, 'Post Submitted!')).toBeVisible();
  await page.goto('/profile');
  await card(page, 'Incentives, a poll').getByRole('link', { name: 'Incentives, a poll' }).click();
  await expect(pollOf(page)).toContainText('Voting opens once the post is approved.');
  await expect(pollOf(page).getByRole('list', { name: 'Results' }).getByRole('listitem')).toHaveText([/^Cash/, /^Prize draw/]);
  await expect(pollOf(page).getByRole('radio')).toHaveCount(0);
  await expect(pollOf(page).getByRole('button', { name: 'Vote' })).toHaveCount(0);
});

test('a poll on one device: a vote live in every tab, Close poll, and the results as CSV', async ({ page, context }) => {
  await storeSession(page, MEMBER);
  await openForum(page);
  const post = makePost({ title: 'Incentive poll', authorEmail: MEMBER, author: 'Jane Doe' });
  const poll = {
    question: QUESTION,
    options: ['Cash', 'Prize draw', 'Donation'],
    multiple: true,
    closesAt: null,
    closedAt: null,
    counts: [0, 0, 0],
    voters: 0,
    ballots: {},
  };
  await putPosts(page, [{ ...post, poll } as typeof post]);
  await expect(card(page, 'Incentive poll')).toContainText('Poll: ' + QUESTION + ' · 0 voters');
  await page.goto(`/posts/${post.id}`);
  const other = await context.newPage();
  await other.goto(`/posts/${post.id}`);
  await expect(pollOf(other).getByRole('checkbox', { name: 'Cash' })).toBeVisible();

  await pollOf(page).getByRole('checkbox', { name: 'Cash' }).check();
  await pollOf(page).getByRole('checkbox', { name: 'Donation' }).check();
  await pollOf(page).getByRole('button', { name: 'Vote' }).click();
  for (const tab of [page, other]) {
    await expect(pollOf(tab).getByRole('listitem').filter({ hasText: 'Cash' })).toContainText('1 vote · 100%');
    await expect(pollOf(tab).getByRole('listitem').filter({ hasText: 'Prize draw' })).toContainText('0 votes · 0%');
    await expect(pollOf(tab)).toContainText('1 voter');
  }

  const download = page.waitForEvent('download');
  await pollOf(page).getByRole('button', { name: 'Download results' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`poll-${post.id}-results.csv`);
  expect(await readFile((await file.path())!, 'utf8')).toBe(
    '"Option","Votes","Percent"\r\n"Cash",1,100\r\n"Prize draw",0,0\r\n"Donation",1,100\r\n"Voters",1,\r\n',
  );

  await pollOf(page).getByRole('button', { name: 'Close poll' }).click();
  await page.getByRole('dialog', { name: 'Close poll?' }).getByRole('button', { name: 'Close poll' }).click();
  await expect(toast(page, 'Poll closed')).toBeVisible();
  await expect(pollOf(other)).toContainText('1 voter · Closed');
  await expect(pollOf(other).getByRole('button', { name: 'Change vote' })).toHaveCount(0);
  await expect(pollOf(other).getByRole('button', { name: 'Close poll' })).toHaveCount(0);
});
