// A device that was local-only meets a server on the same origin: its own sample posts go (the
// server's are shown, once), it asks the member to sign in to the server, and it offers the
// member's own local posts for upload with one question that gives the count.
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startStaticServer } from '../e2e/support/static-server';
import { ADMIN_PASSWORD, removeData, startServer, type RunningServer, syncPort } from './support/server';
import { TABLET, card, newDevice, serverPosts, signIn, submitNewPost, waitSynced, passwordOf } from './support/devices';

const PORT = syncPort(9);
let server: RunningServer | undefined;
test.afterAll(async () => {
  await server?.stop();
  if (server) removeData(server);
});

test('a local-only device meets a server: samples once, sign in, one upload question with the count', async ({ browser }) => {
  const host = await startStaticServer(resolve('dist'), PORT);
  const { context, page } = await newDevice(browser, { url: `http://127.0.0.1:${PORT}` } as RunningServer, TABLET);
  // Local-only: any email signs in, the sample posts are written on this device.
  await signIn(page, 'jane.doe@example.com', 'anything');
  await page.goto('/forum');
  await expect(page.getByRole('article')).toHaveCount(3);
  await expect(page.getByRole('status', { name: /^Sync status:/ })).toHaveCount(0);
  await submitNewPost(page, 'Written before there was a server', 'Kept on this device until now.');
  await host.close();

  server = await startServer({ port: PORT });
  await page.reload();
  // The device's session is unknown to the server: it asks the member to sign in.
  await expect(page).toHaveURL(/\/login/, { timeout: 30_000 });
  await expect(page.getByRole('main').getByRole('status')).toContainText('Please sign in again. Your session on the server has ended.');
  await signIn(page, 'jane.doe@example.com', passwordOf('jane.doe@example.com'));
  await page.goto('/forum');
  await waitSynced(page);
  await expect(page.getByRole('article')).toHaveCount(3); // the server's samples, not six

  const question = page.getByRole('region', { name: /You wrote 1 post on this device/ });
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'Upload 1 post' }).click();
  await expect(page.locator('.app-toasts').getByRole('status').filter({ hasText: 'Posts uploaded' })).toBeVisible();
  await expect(question).toBeHidden();
  await waitSynced(page);
  const posts = await serverPosts(server, ADMIN_PASSWORD);
  expect(posts.filter((post) => post.title === 'Written before there was a server')).toMatchObject([
    { status: 'pending', authorEmail: 'jane.doe@example.com' },
  ]);
  expect(posts).toHaveLength(4); // three samples, once, and the uploaded post
  await page.goto('/profile');
  await expect(card(page, 'Written before there was a server').getByText('pending', { exact: true })).toBeVisible();
  await context.close();
});
