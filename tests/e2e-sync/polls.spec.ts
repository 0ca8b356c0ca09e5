// Polls across devices (issue 42): written in New Post on a phone, not open to votes while pending,
// voted on from two devices (each counted once, live on both), closed by its author; a vote cast
// offline is sent once when the network returns.
import { expect, test, type Page } from '@playwright/test';
import { serverForSpec, syncPort } from './support/server';
import { PHONE, reachedServer, sendOps, signedInDevice, storedPosts, TABLET, waitSynced } from './support/devices';

const spec = serverForSpec(syncPort(31));

const QUESTION = 'Which panel gave the cleanest data?';

/** The poll on a post's page: the group named by its question. */
const pollOf = (page: Page) => page.getByRole('group', { name: QUESTION });

/** The id this device holds for the post titled `title` (the server's, once synced). */
async function idOf(page: Page, title: string): Promise<number> {
  const post = (await storedPosts(page)).find((candidate) => candidate.title === title);
  expect(post).toBeDefined();
  return post!.id;
}

test('a poll: written on a phone, closed to votes while pending, voted from two devices (once each, live), closed by its author', async ({
  browser,
}) => {
  const title = 'Panel quality, a quick poll';
  const author = await signedInDevice(browser, spec.server, 'pollster@example.com', PHONE);
  await author.page.getByRole('button', { name: 'New Post' }).first().click();
  const dialog = author.page.getByRole('dialog', { name: 'New Post' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill('Same screener on three panels.');
  await dialog.getByRole('button', { name: 'Add poll' }).click();
  await dialog.getByLabel('Question').fill(QUESTION);
  await dialog.getByLabel('Option 1', { exact: true }).fill('Panel A');
  await dialog.getByLabel('Option 2', { exact: true }).fill('Panel B');
  await dialog.getByRole('button', { name: 'Add option' }).click();
  await dialog.getByLabel('Option 3', { exact: true }).fill('Panel C');
  await dialog.getByRole('button', { name: 'Submit Post' }).click();
  await expect(author.page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Post Submitted!' })).toBeVisible();
  await reachedServer(author.page); // the post has the server's id
  const id = await idOf(author.page, title);

  // Pending: the poll shows, and takes no vote.
  await author.page.goto(`/posts/${id}`);
  await expect(pollOf(author.page)).toContainText('Voting opens once the post is approved.');
  await expect(pollOf(author.page).getByRole('button', { name: 'Vote' })).toHaveCount(0);

  const admin = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  expect((await sendOps(admin.page, [{ type: 'approve', postId: id }])).results[0]?.status).toBe('applied');

  const voter = await signedInDevice(browser, spec.server, 'panelist@example.com', TABLET, `/posts/${id}`);
  await expect(pollOf(author.page).getByRole('radio', { name: 'Panel A' })).toBeVisible();
  await pollOf(author.page).getByRole('radio', { name: 'Panel A' }).check();
  await pollOf(author.page).getByRole('button', { name: 'Vote' }).click();
  await pollOf(voter.page).getByRole('radio', { name: 'Panel B' }).check();
  await pollOf(voter.page).getByRole('button', { name: 'Vote' }).click();
  for (const page of [author.page, voter.page]) {
    const results = pollOf(page).getByRole('list', { name: 'Results' });
    await expect(results.getByRole('listitem').filter({ hasText: 'Panel A' })).toContainText('1 vote · 50%');
    await expect(results.getByRole('listitem').filter({ hasText: 'Panel B' })).toContainText('1 vote · 50%');
    await expect(results.getByRole('listitem').filter({ hasText: 'Panel C' })).toContainText('0 votes · 0%');
    await expect(pollOf(page)).toContainText('2 voters');
  }
  await expect(pollOf(voter.page).getByRole('listitem').filter({ hasText: 'Panel B' })).toContainText('Your vote');
  await expect(pollOf(voter.page).getByRole('button', { name: 'Close poll' })).toHaveCount(0);

  // Changed on one device: the other follows, still two voters.
  await pollOf(voter.page).getByRole('button', { name: 'Change vote' }).click();
  await pollOf(voter.page).getByRole('radio', { name: 'Panel A' }).check();
  await pollOf(voter.page).getByRole('button', { name: 'Vote' }).click();
  await expect(pollOf(author.page).getByRole('listitem').filter({ hasText: 'Panel A' })).toContainText('2 votes · 100%');
  await expect(pollOf(author.page)).toContainText('2 voters');

  await pollOf(author.page).getByRole('button', { name: 'Close poll' }).click();
  await author.page.getByRole('dialog', { name: 'Close poll?' }).getByRole('button', { name: 'Close poll' }).click();
  await expect(pollOf(voter.page)).toContainText('2 voters · Closed');
  await expect(pollOf(voter.page).getByRole('button', { name: 'Change vote' })).toHaveCount(0);
  await waitSynced(voter.page);
  for (const device of [author, admin, voter]) await device.context.close();
});

test('a vote cast offline is kept, shown at once and sent once when the network returns', async ({ browser }) => {
  const title = 'Offline poll';
  const admin = await signedInDevice(browser, spec.server, 'admin@insightexchange.app', TABLET);
  const made = await sendOps(admin.page, [
    {
      type: 'create',
      post: {
        title,
        content: 'Vote on the train.',
        category: 'Trends',
        poll: { question: QUESTION, options: ['Yes', 'No'], multiple: false, closesAt: null },
      },
    },
  ]);
  const id = made.results[0]!.postId!;
  expect((await sendOps(admin.page, [{ type: 'approve', postId: id }])).results[0]?.status).toBe('applied');
  const rider = await signedInDevice(browser, spec.server, 'rider@example.com', PHONE, `/posts/${id}`);
  await expect(pollOf(rider.page).getByRole('radio', { name: 'No' })).toBeVisible();
  await rider.context.setOffline(true);
  await pollOf(rider.page).getByRole('radio', { name: 'No' }).check();
  await pollOf(rider.page).getByRole('button', { name: 'Vote' }).click();
  await expect(pollOf(rider.page).getByRole('listitem').filter({ hasText: 'No' })).toContainText('Your vote');
  await expect(pollOf(rider.page)).toContainText('1 voter');
  await expect(rider.page.getByRole('status', { name: /^Sync status: Offline/ })).toBeVisible();
  await rider.context.setOffline(false);
  await waitSynced(rider.page);
  await admin.page.goto(`/posts/${id}`);
  await expect(pollOf(admin.page)).toContainText('1 voter');
  // The server holds one ballot: the post as the server answers it says one voter (GET /api/posts/:id,
  // one request: a walk over every page of a full pull counted against the admin's pages per minute).
  const poll = await admin.page.evaluate(async (postId) => {
    const answer = await fetch(`/api/posts/${postId}`);
    const page = (await answer.json()) as { posts?: { id: number; poll: { counts: number[]; voters: number } | null }[] };
    return { status: answer.status, poll: page.posts?.find((post) => post.id === postId)?.poll };
  }, id);
  expect(poll).toMatchObject({ status: 200, poll: { counts: [0, 1], voters: 1 } });
  await rider.page.reload();
  await expect(pollOf(rider.page).getByRole('listitem').filter({ hasText: 'No' })).toContainText('Your vote');
  for (const device of [admin, rider]) await device.context.close();
});
